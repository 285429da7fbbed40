import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const callingPerson = z
  .object({
    credential: z.enum(["session_token", "tenant_api_key", "cli_credential"]),
    email: z.string(),
    scopes: z.array(z.string()),
    tenant_id: z.string(),
    tenant_name: z.string(),
    user_id: z.string(),
    display_name: z.string().optional(),
  })
  .meta({ id: "CallingPerson" });

export const getMe = defineOperation({
  id: "users.getMe",
  method: "GET",
  path: "/v1/users/me",
  summary: "Read the calling person",
  description:
    "The cheapest check that a credential still authenticates: no scope is required. A tenant API key answers with the person who created it, with that person's current scopes (narrowed to those chosen when the key was minted).",
  tags: ["Identity"],
  scope: null,
  credentials: tenantCredentials,
  successStatus: 200,
  output: callingPerson,
});
