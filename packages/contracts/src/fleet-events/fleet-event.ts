import { z } from "zod";
import { gateStatuses } from "../approvals/approval-gate.ts";
import { cursorParam, epochMs, queryInt, tagSet, uuidv7 } from "../common.ts";
import { fleetEventStatuses, fleetEventTypes, resolveSince } from "./values.ts";

export { fleetEventStatuses, fleetEventTypes, resolveSince, retryableEventStatuses } from "./values.ts";

/** A fleet event as lists show it: no request or answer bodies. */
export const fleetEventItem = z
  .object({
    event_id: z.string(),
    fleet_id: z.string(),
    workspace_id: z.string(),
    actor: z.string(),
    event_type: z.enum(fleetEventTypes),
    status: z.enum(fleetEventStatuses),
    created_at: epochMs,
    updated_at: epochMs,
    failure_label: z.string().optional(),
    resumes_event_id: z.string().optional(),
    /** The event this one runs again, when it was made by `…/events/{event_id}/retry`. */
    retry_of: z.string().optional(),
    tokens: z.number().int().optional(),
    wall_ms: z.number().int().optional(),
    cost_nanos: z.number().int().optional(),
  })
  .meta({ id: "FleetEventItem" });

/** How many of a run's approval gates its read names, oldest first. */
export const EVENT_GATES_SHOWN = 20;

/** An approval gate the event's run opened, as the run's page shows it (the inbox has the rest). */
export const fleetEventGate = z
  .object({
    gate_id: z.string(),
    /** `pending` while the run waits for an answer; then its one terminal status. */
    status: z.enum(gateStatuses),
    tool_name: z.string(),
    action_name: z.string(),
    gate_kind: z.string(),
    requested_at: epochMs,
    timeout_at: epochMs,
    resolved_at: epochMs.nullable(),
    resolved_by: z.string().nullable(),
  })
  .meta({ id: "FleetEventGate" });

/** The expanded view: the list item plus the bodies and the gates its run opened. */
export const fleetEventView = fleetEventItem
  .extend({
    request_json: z.string(),
    response_text: z.string().optional(),
    failure_detail: z.string().optional(),
    checkpoint_id: z.string().optional(),
    /**
     * The approval gates the run opened, oldest first (at most 20): a run waiting for an answer names its
     * pending gate here, so a page opened later, or reloaded, can say so and link to it.
     */
    gates: z.array(fleetEventGate),
  })
  .meta({ id: "FleetEvent" });

export const fleetEventPage = z
  .object({ items: z.array(fleetEventItem), next_cursor: z.string().nullable() })
  .meta({ id: "FleetEventPage" });

function timeBound(field: string) {
  return z
    .string()
    .max(64, { error: `${field} must be at most 64 characters` })
    .refine((value) => resolveSince(value, 0) !== null, {
      error: `${field} must be epoch milliseconds, an RFC 3339 time, or a duration such as 15m, 2h or 7d`,
    });
}

/** The filters both event lists take. */
export const eventListQuery = {
  starting_after: cursorParam.optional(),
  limit: queryInt("limit", 1, 200).default(50),
  actor: z
    .string()
    .min(1)
    .max(300, { error: "actor must be at most 300 characters" })
    .refine((value) => !value.slice(0, -1).includes("*"), {
      error: "actor is an exact actor, or a prefix ending in *",
    })
    .optional(),
  since: timeBound("since").optional(),
  /** The window's end, inclusive; the same forms as since (a duration is that long before now). */
  until: timeBound("until").optional(),
  status: tagSet("status", fleetEventStatuses).optional(),
  event_type: tagSet("event_type", fleetEventTypes).optional(),
};

export const eventParam = { event_id: uuidv7("event_id") };
