import { literalLimit, resultRows, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

/** Fan-outs run one at a time across instances, under this lock, so a resource's deliveries keep order. */
const FAN_OUT_LOCK = 7_311_045_033;

/** The most events one fan-out takes (each to at most `WEBHOOK_ENDPOINTS_MAX` endpoints). */
export const FAN_OUT_MAX = 128;

/**
 * Writes the deliveries of events the acts wrote alone: one per enabled endpoint of the event's workspace
 * that subscribes to its type (and, when it names a fleet, to the event's), made no later than the event;
 * then marks the events fanned out, in the same statement. Oldest first, up to `FAN_OUT_MAX` at a time;
 * answers how many events it took (`FAN_OUT_MAX`: more may wait).
 *
 * An act pays for its event only, whatever its subscribers; its deliveries are written a moment after it
 * commits, by the deliverer it kicked (or any instance's periodic pass). Fan-outs run one at a time: the
 * statement takes an advisory lock before it reads an event (a one-time filter), so an earlier event of a
 * resource always has its deliveries written before, or with, a later one's, and the claim's order check
 * holds. A fan-out that waited for another may still see the other's events as not fanned out (its
 * snapshot is older than the lock): their deliveries are there already and stay as they are (`on
 * conflict do nothing`, as for a replay that reached an event first), and the mark, which rereads the
 * row, neither marks nor counts them again; the one that took a full batch goes on to the rest. One
 * statement, one round trip: the deliverer runs one after every kick.
 */
export async function fanOutEvents(ctx: Pick<ServiceContext, "db">): Promise<number> {
  const [row] = resultRows<{ events: number }>(
    await ctx.db.execute(sql`
      with ev as (
        select id, workspace_id, fleet_id, type, resource, created_at from webhook_events
        where not fanned_out and (select true from (select pg_advisory_xact_lock(${FAN_OUT_LOCK}::bigint)) l)
        order by created_at, id
        ${literalLimit(FAN_OUT_MAX)}
      ), delivered as (
        insert into webhook_deliveries (endpoint_id, event_id, resource, type, status, attempts,
          next_attempt_at, created_at, updated_at)
        select e.id, ev.id, ev.resource, ev.type, 'pending', 0, ev.created_at, ev.created_at, ev.created_at
        from ev join webhook_endpoints e on e.workspace_id = ev.workspace_id
        where e.enabled and ev.type = any(e.event_types) and (e.fleet_id is null or e.fleet_id = ev.fleet_id)
          and e.created_at <= ev.created_at
        on conflict do nothing
      ), marked as (
        update webhook_events w set fanned_out = true from ev where w.id = ev.id and not w.fanned_out
        returning 1
      )
      select count(*)::int as events from marked`),
  );
  return Number(row?.events ?? 0);
}
