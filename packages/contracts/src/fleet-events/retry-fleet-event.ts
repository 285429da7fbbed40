import { z } from "zod";
import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { eventParam } from "./fleet-event.ts";

export const retryFleetEvent = defineOperation({
  id: "fleetEvents.retry",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/events/{event_id}/retry",
  summary: "Run a fleet event again",
  description:
    "Stores a new event (status received) with the same event_type and request_json as the finished event it repeats, and retry_of naming it; the caller is its actor. Only a processed or fleet_error event can be run again (409 UZ-EVENT-002, current_state the event's status); a paused, stopped or killed fleet answers 409 UZ-FLEET-003 as for a message. Every call stores a new event: two retries of one event are two runs.",
  tags: ["Fleet events"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 202,
  errorStatuses: [409],
  params: { ...fleetParams, ...eventParam },
  output: z
    .object({ status: z.literal("accepted"), event_id: z.string(), retry_of: z.string() })
    .meta({ id: "RetryAccepted" }),
});
