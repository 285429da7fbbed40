import { type Database, literalLimit, resultRows, sql, type Tx } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { subscribes } from "./subscribers.ts";

/** Fan-outs run one at a time across instances, under this lock, so a resource's deliveries keep order. */
const FAN_OUT_LOCK = 7_311_045_033;

/** The most events one fan-out takes (each to at most `WEBHOOK_ENDPOINTS_MAX` endpoints). */
export const FAN_OUT_MAX = 128;

/**
 * Waits for the fan-out lock, held until the caller's transaction ends: its next statement sees every
 * fan-out before it. A replay takes it too, so the two never write the same deliveries at once (each would
 * wait for the other's: a deadlock).
 */
export async function holdFanOut(tx: Database | Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${FAN_OUT_LOCK}::bigint)`);
}

/**
 * Writes the deliveries of events the acts wrote alone: one per enabled endpoint of the event's workspace
 * that subscribes to its type (and, when it names a fleet, to the event's fleet); then marks the events
 * fanned out, in the same statement. Oldest first, up to `FAN_OUT_MAX` at a time; answers how many events
 * it took (`FAN_OUT_MAX`: more may wait).
 *
 * An act pays for its event only, whatever its subscribers; its deliveries are written a moment after it
 * commits, by the deliverer it kicked (or any instance's periodic pass), to the endpoints subscribed then.
 * Fan-outs run one at a time, each in a transaction that takes the lock before its statement reads, so an
 * earlier event of a resource always has its deliveries written before, or with, a later one's, and the
 * claim's order check holds. The events are locked as they are read: a workspace's delete that commits
 * first leaves them out, and one that comes after waits, then deletes the deliveries with the events. A
 * delivery already there (a ping's) is kept as it is. The mark finds the events by key (`= any` of their
 * ids): joined to them, a plan could read the whole outbox to mark 128.
 */
export async function fanOutEvents(ctx: Pick<ServiceContext, "db">): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    await holdFanOut(tx);
    const [row] = resultRows<{ events: number }>(
      await tx.execute(sql`
        with ev as (
          select id, workspace_id, fleet_id, type, resource, created_at from webhook_events
          where not fanned_out
          order by created_at, id
          ${literalLimit(FAN_OUT_MAX)}
          for update
        ), delivered as (
          insert into webhook_deliveries (endpoint_id, event_id, resource, type, status, attempts,
            next_attempt_at, created_at, updated_at)
          select e.id, ev.id, ev.resource, ev.type, 'pending', 0, ev.created_at, ev.created_at, ev.created_at
          from ev join webhook_endpoints e
            on ${subscribes("e", { workspace: sql`ev.workspace_id`, type: sql`ev.type`, fleet: sql`ev.fleet_id` })}
          on conflict do nothing
        ), marked as (
          update webhook_events w set fanned_out = true where w.id = any(array(select id from ev))
          returning 1
        )
        select count(*)::int as events from marked`),
    );
    return Number(row?.events ?? 0);
  });
}
