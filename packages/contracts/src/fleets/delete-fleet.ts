import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { fleetParams } from "./fleet.ts";

export const deleteFleet = defineOperation({
  id: "fleets.delete",
  method: "DELETE",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}",
  summary: "Delete a fleet",
  description: "Deletes the fleet with its events, memories and schedules.",
  tags: ["Fleets"],
  scope: "fleet:admin",
  credentials: tenantCredentials,
  successStatus: 204,
  params: fleetParams,
  output: z.void(),
});
