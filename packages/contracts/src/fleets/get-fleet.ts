import { defineOperation, tenantCredentials } from "../operation.ts";
import { fleetParams, fleetView } from "./fleet.ts";

export const getFleet = defineOperation({
  id: "fleets.get",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}",
  summary: "Read a fleet",
  description: "The fleet with its definition and etag (also sent as the ETag header).",
  tags: ["Fleets"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: fleetParams,
  output: fleetView,
});
