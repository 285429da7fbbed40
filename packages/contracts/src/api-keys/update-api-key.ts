import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { apiKeyItem } from "./api-key.ts";

export const updateApiKey = defineOperation({
  id: "apiKeys.update",
  method: "PATCH",
  path: "/v1/api-keys/{id}",
  summary: "Revoke a tenant API key",
  description:
    "Setting active to false revokes the key: requests with it fail at once, on every instance. Revocation cannot be undone; a second revoke answers 409 UZ-APIKEY-006.",
  tags: ["API keys"],
  scope: "apikey:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409],
  params: { id: uuidv7("id") },
  body: {
    active: z.literal(false, { error: "active can only be set to false: a revoked key cannot be restored" }),
  },
  output: apiKeyItem,
});
