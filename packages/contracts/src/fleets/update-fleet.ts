import { z } from "zod";
import { LIBRARY_CEILINGS } from "../fleet-libraries/library.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { fleetName, fleetParams, fleetTargetStatuses, fleetView } from "./fleet.ts";

export const updateFleet = defineOperation({
  id: "fleets.update",
  method: "PATCH",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}",
  summary: "Rename a fleet, change its status or its definition",
  description:
    "Pause, resume, stop or kill a fleet, or rename it. Allowed moves: active ⇄ paused; active or paused → stopped; stopped → active; any but killed → killed (terminal). A forbidden move answers 409 UZ-FLEET-003 with current_state. source_markdown replaces the fleet's definition (instructions, requirements and triggers) and trigger_markdown its triggers alone; each is read as an import reads a definition (400 UZ-LIBRARY-010, 413 UZ-LIBRARY-011, 424 UZ-BUNDLE-003 for a credential the workspace lacks), and the fleet's trigger schedules follow (new ones added, gone ones removed, changed ones updated keeping their override). With If-Match, a stale tag answers 412 UZ-FLEET-004 carrying the current etag.",
  tags: ["Fleets"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409, 412, 424],
  // Two definitions, JSON-escaped.
  bodyLimit: 8 * LIBRARY_CEILINGS.definitionBytes,
  params: fleetParams,
  requestHeaders: { if_match: z.string().max(200).optional() },
  body: {
    status: z
      .enum(fleetTargetStatuses, { error: `status must be one of ${fleetTargetStatuses.join(", ")}` })
      .optional(),
    name: fleetName.optional(),
    source_markdown: z.string({ error: "source_markdown must be a string" }).optional(),
    trigger_markdown: z.string({ error: "trigger_markdown must be a string" }).optional(),
  },
  output: fleetView,
});
