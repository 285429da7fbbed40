import { z } from "zod";
import { epochMs } from "../common.ts";
import { fleetEventTypes } from "../fleet-events/fleet-event.ts";
import { fleetStatuses } from "../fleets/fleet.ts";
import { OVERVIEW_COUNT_CAP } from "./values.ts";

export { OVERVIEW_COUNT_CAP } from "./values.ts";

/** Why a waiting event has no runner yet, the first that applies in this order (docs/decisions/console.md, "The overview"). */
export const waitReasons = [
  "fleet_paused",
  "budget_spent",
  "no_runner_online",
  "runners_unavailable",
  "labels_unmatched",
  "fleet_busy",
  "queued",
] as const;
export type WaitReason = (typeof waitReasons)[number];

const total = z.number().int().min(0).max(OVERVIEW_COUNT_CAP);

export const overviewGate = z
  .object({
    gate_id: z.string(),
    fleet_id: z.string(),
    fleet_name: z.string(),
    gate_kind: z.string(),
    tool_name: z.string(),
    action_name: z.string(),
    requested_at: epochMs,
    timeout_at: epochMs,
  })
  .meta({ id: "OverviewGate" });

export const waitingEvent = z
  .object({
    event_id: z.string(),
    fleet_id: z.string(),
    fleet_name: z.string(),
    fleet_status: z.enum(fleetStatuses),
    event_type: z.enum(fleetEventTypes),
    actor: z.string(),
    created_at: epochMs,
    waiting_ms: z.number().int().min(0),
    reason: z.enum(waitReasons),
    /** The runner labels the fleet requires (what `labels_unmatched` found no runner carrying). */
    required_labels: z.array(z.string()),
  })
  .meta({ id: "WaitingEvent" });

export const failedRun = z
  .object({
    event_id: z.string(),
    fleet_id: z.string(),
    fleet_name: z.string(),
    failure_label: z.string().nullable(),
    /** The first 200 characters of the runner's failure detail. */
    failure_detail: z.string().nullable(),
    failed_at: epochMs,
  })
  .meta({ id: "FailedRun" });

export const failedSchedule = z
  .object({
    schedule_id: z.string(),
    fleet_id: z.string(),
    fleet_name: z.string(),
    cron: z.string(),
    timezone: z.string(),
    last_error: z.string().nullable(),
    updated_at: epochMs,
  })
  .meta({ id: "FailedSchedule" });

const panel = <T extends z.ZodType>(item: T) => z.object({ total, items: z.array(item) });

export const overview = z
  .object({
    workspace_id: z.string(),
    generated_at: epochMs,
    pending_approvals: panel(overviewGate),
    waiting_events: panel(waitingEvent),
    /** The platform's runners (they serve every tenant), counted; no runner is named. */
    runners: z.object({
      registered: z.number().int(),
      online: z.number().int(),
      busy: z.number().int(),
      offline: z.number().int(),
      cordoned: z.number().int(),
      draining: z.number().int(),
      degraded: z.number().int(),
    }),
    failed_runs: panel(failedRun).extend({ since: epochMs }),
    failed_schedules: panel(failedSchedule),
    /** This workspace's charges since UTC midnight; null unless the caller holds `billing:read`. */
    spend_today: z
      .object({ since: epochMs, cost_nanos: z.number().int(), runs: z.number().int() })
      .nullable(),
  })
  .meta({ id: "Overview" });
export type Overview = z.infer<typeof overview>;
