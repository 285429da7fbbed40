import type { Socket } from "node:net";
import { type Lease, Problem } from "@fleet/contracts";
import { type Database, eq, resultRows, runnerEvents, runners, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { batchesOf, type GroupCommit } from "../shared/group-commit.ts";
import { type ClaimAnswer, type ClaimRow, claimMany, claimOne } from "./acquire-claims.ts";
import { withPolicyGates } from "./tool-gates.ts";

/** An idle acquire re-polls at least this often, whatever the wake-ups say. */
const REPOLL_MS = 5_000;
/** What a poll that arrives at an instance already shutting down is told to wait before asking again. */
const DRAINING_RETRY_MS = 1_000;

/**
 * One attempt to lease work, shared with the acquires queued by the end of this turn (`claimMany`: one
 * statement and one commit for them all; `claimOne` for an acquire the batch could not serve). A unique
 * violation of the one-running-lease-per-fleet index is `"conflict"`: the caller settles lapsed leases
 * and tries again.
 */
async function tryAcquire(ctx: ServiceContext, runnerId: string): Promise<Lease | null | "conflict"> {
  const now = ctx.now();
  const row = { id: newId(now), runnerId, historyId: newId(now), at: now, ttlMs: ctx.config.leaseTtlMs };
  try {
    // The queue is made once per database, with the first acquire's context: its work signal is the instance's.
    const statement = (db: Database, rows: ClaimRow[]) => claimMany(db, rows, () => ctx.work.announce());
    const answer = await batchesOf(batches, ctx, statement).store(row);
    return answer === "alone" ? await claimOne(ctx.db, row) : answer;
  } catch (error) {
    if (uniqueViolation(error, "leases_one_running_per_fleet")) return "conflict";
    throw error;
  }
}

const batches = new WeakMap<Database, GroupCommit<ClaimRow, ClaimAnswer>>();

/**
 * Leases work for the runner, holding the request open up to `waitMs` until some arrives. Waiting is on
 * the work signal (this instance's inserts and reports, and other instances' NOTIFY), with a slow re-poll
 * as a net. A runner that hangs up while waiting (shutting down, or its host gone) is leased nothing: a
 * lease granted to a closed connection would hold its fleet's work for a whole TTL. An instance shutting
 * down answers its waiting polls at once with no lease (a lease is granted only to a request that is
 * answered, so none is lost to the shutdown).
 */
export async function acquireLease(
  ctx: ServiceContext,
  runnerId: string,
  waitMs: number,
  connection: Socket | null = null,
) {
  const deadline = ctx.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    if (connection?.destroyed) return { lease: null, retry_after_ms: 0 };
    const ticket = ctx.work.ticket();
    const claimed = await tryAcquire(ctx, runnerId);
    if (claimed === "conflict") {
      await expireLapsedLeases(ctx);
      continue;
    }
    if (claimed !== null) {
      const lease = await withPolicyGates(ctx, claimed);
      ctx.metrics?.lease(lease.kind === "reclaim" ? "reclaimed" : "acquired");
      ctx.tracing?.leaseAcquired(
        {
          leaseId: lease.lease_id,
          eventId: lease.event_id,
          kind: lease.kind,
          fencingToken: lease.fencing_token,
        },
        ctx.now(),
      );
      return { lease, retry_after_ms: 0 };
    }
    // Nothing leased: say why when it is the runner's own state, before waiting for work.
    if (attempt === 0) {
      const refusal = await runnerRefusal(ctx, runnerId);
      if (refusal !== null) return refusal;
    }
    const left = deadline - ctx.now();
    if (left <= 0) return { lease: null, retry_after_ms: 1_000 };
    // Shutting down: a poll that waited asks again at once (through the load balancer, elsewhere); one
    // that arrived while draining waits a little first, so it does not spin against this instance.
    if (ctx.work.draining) return { lease: null, retry_after_ms: attempt === 0 ? DRAINING_RETRY_MS : 0 };
    await ctx.work.wait(ticket, Math.min(left, REPOLL_MS), connection);
  }
}

/**
 * Marks leases past their time expired, so their fleets' work can be handed out again, with their history
 * rows: two statements in one transaction. Their fleet rows are locked first, `for no key update` in id
 * order, as every batch of acquires, reports and renewals locks them: the leases updated in whatever order
 * the plan chose could wait on a batch that waits on them (a deadlock, one of the two refused). The update
 * itself is not joined to the fleets (`locked` only orders it after them): a lease whose fleet was deleted
 * is expired too, and its sealed deliveries dropped.
 */
export async function expireLapsedLeases(ctx: ServiceContext): Promise<void> {
  const now = ctx.now();
  const expired = await ctx.db.transaction(async (tx) => {
    const lapsed = resultRows<{ id: string; runner_id: string }>(
      await tx.execute(sql`
        with f as materialized (
          select id from fleets
          where id in (select fleet_id from leases where status = 'running' and expires_at <= ${now})
          order by id
          for no key update
        )
        update leases l set status = 'expired', ended_at = ${now}, delivered_sealed = null
        from (select count(*) from f) locked
        where l.status = 'running' and l.expires_at <= ${now}
        returning l.id, l.runner_id`),
    );
    if (lapsed.length > 0) {
      await tx.insert(runnerEvents).values(
        lapsed.map((lease) => ({
          id: newId(now),
          runnerId: lease.runner_id,
          eventType: "lease_released" as const,
          detail: { lease_id: lease.id, outcome: "expired" },
          createdAt: now,
        })),
      );
    }
    return lapsed.length;
  });
  if (expired > 0) ctx.metrics?.lease("expired", expired);
}

/** A degraded runner is refused; a cordoned, draining or revoked one gets no work. */
async function runnerRefusal(ctx: ServiceContext, runnerId: string) {
  const [runner] = await ctx.db.select().from(runners).where(eq(runners.id, runnerId));
  if (runner === undefined) throw new Problem("UZ-AUTH-002", { detail: "The runner token does not verify." });
  if (runner.degraded) {
    throw new Problem("UZ-EXEC-017", {
      detail: `The runner is degraded (${runner.degradedReason}); no work is leased to it until a heartbeat satisfies its policy.`,
      current_state: "degraded",
    });
  }
  return runner.adminState === "active" ? null : { lease: null, retry_after_ms: REPOLL_MS };
}
