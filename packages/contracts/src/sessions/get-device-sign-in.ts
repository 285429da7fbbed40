import { defineOperation } from "../operation.ts";
import { deviceSignInView, userCodeInput } from "./device-sign-in.ts";

export const getDeviceSignIn = defineOperation({
  id: "sessions.getDeviceSignIn",
  method: "POST",
  path: "/v1/auth/sessions/lookup",
  summary: "Read the command-line sign-in waiting with a user code",
  description:
    "What the console's /device page shows before the person answers: the client's name and host as it reported them, when it asked, and the code to compare. A POST, so the code stays out of URLs and logs. An unknown, expired or answered code is 404 UZ-AUTH-016 and counts as a wrong code: past 5 wrong codes in 15 minutes a person is refused with 429 UZ-AUTH-018.",
  tags: ["Identity"],
  scope: null,
  credentials: ["session"],
  successStatus: 200,
  errorStatuses: [404, 429],
  body: { user_code: userCodeInput },
  output: deviceSignInView,
});
