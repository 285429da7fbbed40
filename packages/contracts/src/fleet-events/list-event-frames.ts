import { cursorParam, queryInt } from "../common.ts";
import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { eventParam } from "./fleet-event.ts";
import { runFramePage } from "./stream-frame.ts";

export const listEventFrames = defineOperation({
  id: "fleetEvents.listFrames",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/events/{event_id}/frames",
  summary: "List the frames an event's runs published",
  description:
    "The tool calls, text chunks and gates the event's runs published on the live tail, oldest first, across " +
    "every lease of the event, so a run's page shows its steps after a reload. The same frames a " +
    "subscriber of the workspace's stream saw, secrets masked as they were. limit defaults to 100 and is " +
    "refused above 200. Each lease keeps its first 2,000 frames for retention_hours; an event never leased " +
    "has none. A nonexistent event and another workspace's event answer the same 404 UZ-EVENT-001.",
  tags: ["Fleet events"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: { ...fleetParams, ...eventParam },
  query: { starting_after: cursorParam.optional(), limit: queryInt("limit", 1, 200).default(100) },
  output: runFramePage,
});
