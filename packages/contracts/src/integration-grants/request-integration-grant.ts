import { z } from "zod";
import { epochMs } from "../common.ts";
import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { grantReason, grantStatuses, serviceField } from "./integration-grant.ts";

export const requestIntegrationGrant = defineOperation({
  id: "integrationGrants.request",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/integration-requests",
  summary: "Request a new integration grant",
  description:
    "Asks for the fleet's use of a third-party service. One grant per (fleet, service): a new request creates it pending and opens an integration_grant gate in the approvals inbox (201); asking again while it is pending answers the standing request (200), or opens a fresh gate (201) when its gate timed out or was closed; asking after a revoke returns it to pending with a new gate (201); an approved grant is answered as it is (200). A person decides it in the inbox or through the signed grant-approval webhook.",
  tags: ["Integration grants"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 201,
  otherSuccesses: {
    200: "The grant already stood (pending with its gate open, or approved): it is answered unchanged.",
  },
  errorStatuses: [409],
  params: fleetParams,
  body: { service: serviceField, reason: grantReason },
  output: z
    .object({
      grant_id: z.string(),
      status: z.enum(grantStatuses),
      fleet_id: z.string(),
      service: z.string(),
      requested_at: epochMs,
      message: z.string(),
      /** The integration_grant gate to answer in the inbox; null for an approved grant. */
      gate_id: z.string().nullable(),
    })
    .meta({ id: "IntegrationGrantRequest" }),
});
