import { z } from "zod";
import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { grantListQuery, integrationGrant } from "./integration-grant.ts";

export const listIntegrationGrants = defineOperation({
  id: "integrationGrants.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/integration-grants",
  summary: "List a fleet's integration grants",
  description:
    "Newest first, cursor-paged over (created_at, grant_id): follow next_cursor until it is null. Filter by status (pending, approved, revoked).",
  tags: ["Integration grants"],
  scope: "grant:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: fleetParams,
  query: grantListQuery,
  output: z
    .object({ items: z.array(integrationGrant), next_cursor: z.string().nullable() })
    .meta({ id: "IntegrationGrantPage" }),
});
