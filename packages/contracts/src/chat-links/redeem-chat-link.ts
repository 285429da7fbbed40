import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { chatLink } from "./chat-link.ts";

export const redeemChatLink = defineOperation({
  id: "chatLinks.redeem",
  method: "POST",
  path: "/v1/users/me/chat-links",
  summary: "Link a chat user to the calling person",
  description:
    "Spends the one-time link a chat user was sent when they clicked a gate's button unlinked: from then on that chat user's clicks act as the calling member (their scopes and the gate's rule are checked as in the inbox). A console session only. The token must verify, be at most ten minutes old, unspent, and made in the caller's tenant, else 400 UZ-CONN-006 and nothing changes; a chat user already linked in the tenant is 409 UZ-CONN-007.",
  tags: ["Identity"],
  scope: null,
  credentials: ["session"],
  successStatus: 201,
  errorStatuses: [409],
  body: {
    token: z
      .string({ error: "token must be a string" })
      .min(1, { error: "token must not be empty" })
      .max(1024, { error: "token must be at most 1024 characters" }),
  },
  output: chatLink,
});
