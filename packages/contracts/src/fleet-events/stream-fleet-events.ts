import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { streamFrame, streamQuery } from "./stream-frame.ts";

export const streamFleetEvents = defineOperation({
  id: "fleetEvents.stream",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/events/stream",
  summary: "Tail a fleet's events live",
  description:
    "Server-Sent Events: `hello` first, then each frame named by its kind with an increasing `id:`. Resume with Last-Event-ID (or last_event_id) within the replay window; `reset` means refetch. 503 UZ-API-002 when the instance holds as many streams as it takes; 429 UZ-API-001 when the tenant or the credential holds its share of them.",
  tags: ["Fleet events"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  stream: true,
  errorStatuses: [503],
  params: fleetParams,
  query: streamQuery,
  requestHeaders: { last_event_id: streamQuery.last_event_id },
  output: streamFrame,
});
