import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation } from "../operation.ts";

export const exchangeSignInLink = defineOperation({
  id: "sessions.exchangeSignInLink",
  method: "POST",
  path: "/v1/auth/sign-in-links/exchange",
  summary: "Exchange a one-time sign-in link for a session token",
  description:
    "The console calls this with the token of a link printed by `fleetctl login-link`. A link is single use and valid for 10 minutes; an unknown, used or expired one answers 401 UZ-AUTH-010. Only when the service runs in dev mode (`FLEET_DEV_MODE=true`, as `pnpm start` sets) and the person holds every tenant scope, the answer also carries `operator_token`, an operator token for the console's operator pages that expires with the session.",
  tags: ["Identity"],
  scope: null,
  credentials: [],
  successStatus: 200,
  errorStatuses: [401],
  headers: { "cache-control": "no-store" },
  body: { token: z.string().min(1, { error: "token must not be empty" }).max(256) },
  output: z
    .object({
      session_token: z.string(),
      expires_at: epochMs,
      user_id: z.string(),
      tenant_id: z.string(),
      /** Dev mode only, for an owner: the operator plane's credential for the same person and lifetime. */
      operator_token: z.string().optional(),
    })
    .meta({ id: "SignInSession" }),
});
