import { defineOperation } from "../operation.ts";
import { deviceSignInView, userCodeInput } from "./device-sign-in.ts";

export const approveDeviceSignIn = defineOperation({
  id: "sessions.approveDeviceSignIn",
  method: "POST",
  path: "/v1/auth/sessions/approve",
  summary: "Approve a command-line sign-in",
  description:
    "The signed-in person approves the sign-in waiting with this user code: the client's next poll receives a command-line credential for this person in this tenant, with the scopes this session holds now. An answered sign-in is 409 UZ-AUTH-017 (current_state: approved or denied); an unknown or expired code is 404 UZ-AUTH-016 and counts as a wrong code (429 UZ-AUTH-018 past 5 in 15 minutes).",
  tags: ["Identity"],
  scope: null,
  credentials: ["session"],
  successStatus: 200,
  errorStatuses: [404, 409, 429],
  body: { user_code: userCodeInput },
  output: deviceSignInView,
});
