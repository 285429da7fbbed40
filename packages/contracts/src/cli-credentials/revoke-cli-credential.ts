import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const revokeCliCredential = defineOperation({
  id: "cliCredentials.revoke",
  method: "DELETE",
  path: "/v1/users/me/cli-credentials/{credential_id}",
  summary: "Revoke one of the calling person's command-line credentials",
  description:
    "Its next request is refused (401 UZ-AUTH-002) on every instance, and its open streams end: the answer waits until every instance has heard. Revoking a revoked credential answers 204 again; one that is not the caller's is 404 UZ-AUTH-019.",
  tags: ["Identity"],
  scope: null,
  credentials: tenantCredentials,
  successStatus: 204,
  params: { credential_id: uuidv7("credential_id") },
  output: z.void(),
});
