import { defineOperation, tenantCredentials } from "../operation.ts";
import { grantParams, integrationGrant } from "./integration-grant.ts";

export const revokeIntegrationGrant = defineOperation({
  id: "integrationGrants.revoke",
  method: "DELETE",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/integration-grants/{grant_id}",
  summary: "Revoke an integration grant",
  description:
    "Moves a pending or approved grant to revoked (a pending one's open gate is denied with it) and answers the grant. The row stays: the fleet may ask again, which returns it to pending. A grant already revoked is 409 UZ-GRANT-002.",
  tags: ["Integration grants"],
  scope: "grant:write",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409],
  params: grantParams,
  output: integrationGrant,
});
