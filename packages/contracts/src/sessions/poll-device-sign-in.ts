import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation } from "../operation.ts";

export const pollDeviceSignIn = defineOperation({
  id: "sessions.pollDeviceSignIn",
  method: "POST",
  path: "/v1/auth/sessions/token",
  summary: "Poll a command-line sign-in for its credential",
  description:
    "The command-line client polls with its device code. Until the person answers: 409 UZ-AUTH-012 (authorization_pending) with Retry-After; polled faster than the interval: 429 UZ-AUTH-013 (slow_down), the interval grown by 5 s; denied: 403 UZ-AUTH-015 (access_denied); unknown, spent or expired: 401 UZ-AUTH-014 (expired_token). Once approved, one poll answers a command-line credential (a session token of kind `cli`; `credential: cli_credential` in users/me); the device code is then spent.",
  tags: ["Identity"],
  scope: null,
  credentials: [],
  successStatus: 200,
  errorStatuses: [401, 403, 409, 429],
  headers: { "cache-control": "no-store" },
  body: { device_code: z.string().min(1, { error: "device_code must not be empty" }).max(256) },
  output: z
    .object({
      session_token: z.string(),
      token_type: z.literal("Bearer"),
      expires_at: epochMs,
      credential_id: z.string(),
      user_id: z.string(),
      tenant_id: z.string(),
    })
    .meta({ id: "CliCredentialToken" }),
});
