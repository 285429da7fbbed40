import { and, type Database, eq, fleetEvents, fleets, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../context.ts";
import { eventReceived } from "../fleet-events/frames.ts";
import { notAccepting, requireFleet } from "./access.ts";
import { sendOnce } from "./message-keys.ts";

/**
 * Stores a person's message as a chat event for a runner to lease. The common case is one statement:
 * the insert reads the fleet (scoped to the tenant and workspace, and active) in the same query. Only a
 * refusal costs a second read, to say why.
 */
export async function messageFleet(
  ctx: ServiceContext,
  caller: { tenantId: string; actor: string },
  input: { workspace_id: string; fleet_id: string; message: string; idempotency_key?: string | undefined },
) {
  if (input.idempotency_key !== undefined) {
    const sent = await sendOnce(ctx, caller, { ...input, idempotency_key: input.idempotency_key });
    // A repeat answers the first send's event, which entered (and was announced) then.
    if (sent.stored) entered(ctx, caller, input, sent.eventId);
    return { status: "accepted" as const, event_id: sent.eventId };
  }
  const { db } = ctx;
  const now = ctx.now();
  const [row] = await insertChat(db).execute({
    id: newId(now),
    actor: caller.actor,
    requestJson: JSON.stringify({ message: input.message }),
    now,
    fleetId: input.fleet_id,
    workspaceId: input.workspace_id,
    tenantId: caller.tenantId,
  });
  if (row !== undefined) {
    entered(ctx, caller, input, row.id);
    return { status: "accepted" as const, event_id: row.id };
  }
  const fleet = await requireFleet(db, caller.tenantId, input.workspace_id, input.fleet_id);
  throw notAccepting(fleet.status);
}

/** A chat event was stored: waiting runners take it now, and the live tail and the run's trace begin. */
function entered(
  ctx: ServiceContext,
  caller: { actor: string },
  input: { workspace_id: string; fleet_id: string; message: string },
  eventId: string,
): void {
  ctx.work.announce();
  ctx.tracing?.eventReceived(eventId, "chat");
  eventReceived(ctx, {
    workspaceId: input.workspace_id,
    fleetId: input.fleet_id,
    eventId,
    eventType: "chat",
    actor: caller.actor,
    message: input.message,
  });
}

const prepared = new WeakMap<Database, ReturnType<typeof prepareInsertChat>>();

/** The hot path's statement, built once per database handle rather than once per message. */
function insertChat(db: Database) {
  let statement = prepared.get(db);
  if (statement === undefined) {
    statement = prepareInsertChat(db);
    prepared.set(db, statement);
  }
  return statement;
}

function prepareInsertChat(db: Database) {
  const now = sql`${sql.placeholder("now")}::bigint`;
  return db
    .insert(fleetEvents)
    .select(
      db
        .select({
          id: sql`${sql.placeholder("id")}::uuid`.as("id"),
          workspaceId: fleets.workspaceId,
          fleetId: fleets.id,
          actor: sql`${sql.placeholder("actor")}::text`.as("actor"),
          eventType: sql`'chat'`.as("event_type"),
          requestJson: sql`${sql.placeholder("requestJson")}::text`.as("request_json"),
          status: sql`'received'`.as("status"),
          responseText: sql`null`.as("response_text"),
          failureLabel: sql`null`.as("failure_label"),
          failureDetail: sql`null`.as("failure_detail"),
          checkpointId: sql`null`.as("checkpoint_id"),
          resumesEventId: sql`null::uuid`.as("resumes_event_id"),
          retryOf: sql`null::uuid`.as("retry_of"),
          tokens: sql`null::bigint`.as("tokens"),
          wallMs: sql`null::bigint`.as("wall_ms"),
          costNanos: sql`null::bigint`.as("cost_nanos"),
          createdAt: now.as("created_at"),
          updatedAt: sql`${sql.placeholder("now")}::bigint`.as("updated_at"),
        })
        .from(fleets)
        .where(
          and(
            eq(fleets.id, sql.placeholder("fleetId")),
            eq(fleets.workspaceId, sql.placeholder("workspaceId")),
            eq(fleets.tenantId, sql.placeholder("tenantId")),
            eq(fleets.status, "active"),
          ),
        ),
    )
    .returning({ id: fleetEvents.id })
    .prepare("fleet_message");
}
