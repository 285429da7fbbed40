import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { fleetName, fleetParams, fleetTargetStatuses, fleetView } from "./fleet.ts";

export const updateFleet = defineOperation({
  id: "fleets.update",
  method: "PATCH",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}",
  summary: "Rename a fleet or change its status",
  description:
    "Pause, resume, stop or kill a fleet, or rename it. Allowed moves: active ⇄ paused; active or paused → stopped; stopped → active; any but killed → killed (terminal). A forbidden move answers 409 UZ-FLEET-003 with current_state. With If-Match, a stale tag answers 412 UZ-FLEET-004 carrying the current etag.",
  tags: ["Fleets"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409, 412],
  params: fleetParams,
  requestHeaders: { if_match: z.string().max(200).optional() },
  body: {
    status: z
      .enum(fleetTargetStatuses, { error: `status must be one of ${fleetTargetStatuses.join(", ")}` })
      .optional(),
    name: fleetName.optional(),
  },
  output: fleetView,
});
