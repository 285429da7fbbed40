import { z } from "zod";
import { defineOperation } from "../operation.ts";

export const endSession = defineOperation({
  id: "sessions.end",
  method: "DELETE",
  path: "/v1/auth/sessions/current",
  summary: "Sign out: end the session the request is made with",
  description:
    "Ends the calling credential, a console session or a command-line credential, and every command-line credential approved through it, to the end of the chain (their sign-ins not yet collected are denied). Their next request is refused (401 UZ-AUTH-002) on every instance: the answer waits until every instance has heard. Answers 204.",
  tags: ["Identity"],
  scope: null,
  credentials: ["session"],
  successStatus: 204,
  output: z.void(),
});
