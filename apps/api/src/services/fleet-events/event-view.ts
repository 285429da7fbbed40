import { EVENT_GATES_SHOWN, Problem } from "@fleet/contracts";
import { and, approvalGates, asc, eq, fleetEvents, fleets, type SQL, type Tx } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { present } from "../shared/tags.ts";

type EventRow = typeof fleetEvents.$inferSelect;

export function toEventItem(
  row: Omit<EventRow, "requestJson" | "responseText" | "failureDetail" | "checkpointId">,
) {
  return {
    event_id: row.id,
    fleet_id: row.fleetId,
    workspace_id: row.workspaceId,
    actor: row.actor,
    event_type: row.eventType as "chat",
    status: row.status as "received",
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    ...present("failure_label", row.failureLabel),
    ...present("resumes_event_id", row.resumesEventId),
    ...present("retry_of", row.retryOf),
    ...present("tokens", row.tokens),
    ...present("wall_ms", row.wallMs),
    ...present("cost_nanos", row.costNanos),
  };
}

/**
 * One event with its bodies. The tenant, workspace and fleet are conditions of the one query, so an
 * event elsewhere is exactly as absent as one that never existed. Reads through `db`, a transaction's when
 * given one (a report writing the event's webhook payload reads it as its own transaction left it).
 */
export async function readFleetEvent(
  ctx: Pick<ServiceContext, "db"> | { db: Tx },
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; event_id: string },
) {
  const event = await readFleetEventRow(ctx, tenantId, input);
  // By the fleet's gate index (fleet_id leads it), then the event: a run's gates without a scan of the
  // workspace's.
  const gates = await ctx.db
    .select()
    .from(approvalGates)
    .where(and(eq(approvalGates.fleetId, event.fleetId), eq(approvalGates.eventId, event.id)))
    .orderBy(asc(approvalGates.requestedAt), asc(approvalGates.id))
    .limit(EVENT_GATES_SHOWN);
  return {
    ...toEventItem(event),
    request_json: event.requestJson,
    ...present("response_text", event.responseText),
    ...present("failure_detail", event.failureDetail),
    ...present("checkpoint_id", event.checkpointId),
    gates: gates.map((gate) => ({
      gate_id: gate.id,
      status: gate.status as "pending",
      tool_name: gate.toolName,
      action_name: gate.actionName,
      gate_kind: gate.gateKind,
      requested_at: gate.requestedAt,
      timeout_at: gate.timeoutAt,
      resolved_at: gate.resolvedAt,
      resolved_by: gate.resolvedBy,
    })),
  };
}

/** The event's row in the caller's tenant, workspace and fleet, or 404 `UZ-EVENT-001`. */
export async function readFleetEventRow(
  ctx: Pick<ServiceContext, "db"> | { db: Tx },
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; event_id: string },
): Promise<EventRow> {
  const [row] = await ctx.db
    .select({ event: fleetEvents })
    .from(fleetEvents)
    .innerJoin(fleets, eq(fleets.id, fleetEvents.fleetId))
    .where(eventInScope(tenantId, input));
  if (row === undefined) {
    throw new Problem("UZ-EVENT-001", { detail: `No event ${input.event_id} for this fleet.` });
  }
  return row.event;
}

/** The event, in the caller's tenant (joined through `fleets`), workspace and fleet: a query's condition. */
export function eventInScope(
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; event_id: string },
): SQL | undefined {
  return and(
    eq(fleetEvents.id, input.event_id),
    eq(fleetEvents.fleetId, input.fleet_id),
    eq(fleetEvents.workspaceId, input.workspace_id),
    eq(fleets.tenantId, tenantId),
  );
}
