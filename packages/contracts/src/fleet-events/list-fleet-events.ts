import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { eventListQuery, fleetEventPage } from "./fleet-event.ts";

export const listFleetEvents = defineOperation({
  id: "fleetEvents.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/events",
  summary: "List a fleet's events",
  description:
    "Newest first, up to 200 a page, without request or answer bodies. actor filters exactly or by a prefix ending in *; since and until (inclusive) take epoch ms, RFC 3339 or a duration back from now (15m, 2h, 7d), and since after until is refused; status and event_type are comma-separated sets (a union; an unrecognised value answers 400). A cursor is bound to its filters.",
  tags: ["Fleet events"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: fleetParams,
  query: eventListQuery,
  output: fleetEventPage,
});
