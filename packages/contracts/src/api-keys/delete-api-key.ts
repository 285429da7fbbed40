import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const deleteApiKey = defineOperation({
  id: "apiKeys.delete",
  method: "DELETE",
  path: "/v1/api-keys/{id}",
  summary: "Delete a revoked tenant API key",
  description: "Only a revoked key can be deleted (409 UZ-APIKEY-005 otherwise).",
  tags: ["API keys"],
  scope: "apikey:admin",
  credentials: tenantCredentials,
  successStatus: 204,
  errorStatuses: [409],
  params: { id: uuidv7("id") },
  output: z.void(),
});
