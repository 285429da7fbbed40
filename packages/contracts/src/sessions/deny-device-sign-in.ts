import { defineOperation } from "../operation.ts";
import { deviceSignInView, userCodeInput } from "./device-sign-in.ts";

export const denyDeviceSignIn = defineOperation({
  id: "sessions.denyDeviceSignIn",
  method: "POST",
  path: "/v1/auth/sessions/deny",
  summary: "Deny a command-line sign-in",
  description:
    "The signed-in person denies the sign-in waiting with this user code: the client's next poll is 403 UZ-AUTH-015 (access_denied). Same refusals as approve.",
  tags: ["Identity"],
  scope: null,
  credentials: ["session"],
  successStatus: 200,
  errorStatuses: [404, 409, 429],
  body: { user_code: userCodeInput },
  output: deviceSignInView,
});
