import { type Database, resultRows, sql, type Tx } from "@fleet/db";
import { GATE_CHANNEL } from "../../runtime/gate-signal.ts";
import type { ServiceContext } from "../shared/context.ts";
import { type GateWithWebhookId, gatesResolved } from "../shared/frames.ts";
import { markEscalations } from "./escalate.ts";
import { gatesWebhookEvents } from "./gate-webhooks.ts";

/** The sweeper's pg-boss queue, and its cadence: a pass every 2 s, so a gate times out within ~3 s of its deadline. */
export const GATE_SWEEP_QUEUE = "approval-gate-sweep";
export const GATE_SWEEP_EVERY_MS = 2_000;

/** How many overdue gates one sweep closes; a larger backlog is taken by the next sweeps. */
const SWEEP_BATCH = 500;

/**
 * Moves pending gates past their deadline to `timed_out` (all of them, or the one `gateId`), and tells
 * every instance's waiters. Conditional on `pending`, with concurrent sweepers skipping rows another one
 * holds: a gate times out once, and never after an answer was written. `resolved_at` is the deadline.
 * Each gate's `gate.timed_out` goes to the outbox in the same transaction (a savepoint of the caller's).
 */
export async function timeOutGates(
  db: Database | Tx,
  now: number,
  gateId?: string,
): Promise<GateWithWebhookId[]> {
  return db.transaction(async (tx) => {
    const rows = resultRows<{ id: string }>(
      await tx.execute(sql`
      with due as (
        select id from approval_gates
        where status = 'pending' and timeout_at <= ${now}::bigint
          ${gateId === undefined ? sql`` : sql`and id = ${gateId}::uuid`}
        order by timeout_at
        limit ${SWEEP_BATCH}
        -- The sweep skips rows another sweep holds; a single gate's late answer waits for that one.
        for update ${gateId === undefined ? sql`skip locked` : sql``}
      ),
      swept as (
        update approval_gates g
        set status = 'timed_out', resolved_by = 'system:timeout', resolved_at = g.timeout_at,
            updated_at = ${now}::bigint
        from due where g.id = due.id and g.status = 'pending'
        returning g.id
      )
      select id, pg_notify(${GATE_CHANNEL}, id::text) from swept`),
    );
    const ids = rows.map((row) => row.id);
    return (await gatesWebhookEvents(tx, ids, "gate.timed_out", now)).gates;
  });
}

/**
 * The sweeper's pass (a pg-boss job, so one instance runs each pass): times out what is overdue, then
 * escalates what is due (its notices go through the outbox).
 */
export async function sweepOverdueGates(ctx: ServiceContext): Promise<number> {
  const swept = await timeOutGates(ctx.db, ctx.now());
  for (const gate of swept) ctx.gates.wake(gate.id);
  gatesResolved(ctx, swept);
  await markEscalations(ctx, ctx.now());
  return swept.length;
}

/**
 * Closes the fleet's pending gates as `auto_killed` in the transaction that stops, kills or deletes it:
 * the fleet will not act on them, and its runner reads the closure as a denial. Closed without a decision,
 * each sends `gate.timed_out` (its data's status says `auto_killed`).
 */
export async function autoKillFleetGates(
  tx: Tx,
  fleetId: string,
  cause: "stopped" | "killed" | "deleted",
  now: number,
): Promise<GateWithWebhookId[]> {
  const result = await tx.execute(sql`
    with killed as (
      update approval_gates
      set status = 'auto_killed', resolved_by = ${`system:fleet_${cause}`}, resolved_at = ${now}::bigint,
          updated_at = ${now}::bigint
      where fleet_id = ${fleetId}::uuid and status = 'pending'
      returning id
    )
    select id, pg_notify(${GATE_CHANNEL}, id::text) from killed`);
  const ids = resultRows<{ id: string }>(result).map((row) => row.id);
  return (await gatesWebhookEvents(tx, ids, "gate.timed_out", now)).gates;
}
