import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { eventParam, fleetEventView } from "./fleet-event.ts";

export const getFleetEvent = defineOperation({
  id: "fleetEvents.get",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/events/{event_id}",
  summary: "Read one fleet event",
  description:
    "The event with its bodies. A nonexistent event and another workspace's event answer the same 404 UZ-EVENT-001: the scope is part of the query.",
  tags: ["Fleet events"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: { ...fleetParams, ...eventParam },
  output: fleetEventView,
});
