import { type Lease, Problem } from "@fleet/contracts";
import { type Database, eq, fleetEvents, fleets, leases, runners, sql, type Tx } from "@fleet/db";
import { newId } from "../../ids.ts";
import type { ServiceContext } from "../context.ts";
import { recordRunnerEvent } from "./runners.ts";

export const LEASE_MAX_MS = 12 * 60 * 60 * 1000;
/** An idle acquire re-polls at least this often, whatever the wake-ups say. */
const REPOLL_MS = 5_000;

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

interface Candidate {
  fleet_id: string;
  event_id: string;
}

/**
 * One attempt to lease work: the oldest waiting event among active fleets whose required labels the
 * runner has and that no live lease holds. The fleet row is locked (others skip it), the live-lease
 * check is repeated under the lock, and the fleet's fencing sequence is bumped for the new lease.
 */
async function tryAcquire(ctx: ServiceContext, runnerId: string, labels: string[]): Promise<Lease | null> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const [candidate] = rowsOf<Candidate>(
      await tx.execute(sql`
        select f.id as fleet_id, e.id as event_id
        from fleets f
        join lateral (
          select pending.id, pending.created_at from fleet_events pending
          where pending.fleet_id = f.id and pending.status = 'received'
          order by pending.created_at, pending.id limit 1
        ) e on true
        where f.status = 'active'
          and coalesce(f.definition -> 'requirements' -> 'runner_labels', '[]'::jsonb) <@ ${JSON.stringify(labels)}::jsonb
          and not exists (
            select 1 from leases l where l.fleet_id = f.id and l.status = 'running' and l.expires_at > ${now}
          )
        order by e.created_at, e.id
        limit 1
        for update of f skip locked`),
    );
    if (candidate === undefined) return null;
    // Under the fleet's lock, with a fresh snapshot: a lease taken meanwhile is now visible.
    const [holder] = await tx
      .select({ id: leases.id, expiresAt: leases.expiresAt, runnerId: leases.runnerId })
      .from(leases)
      .where(sql`${leases.fleetId} = ${candidate.fleet_id} and ${leases.status} = 'running'`);
    if (holder !== undefined && holder.expiresAt > now) return null;
    if (holder !== undefined) {
      await tx.update(leases).set({ status: "expired", endedAt: now }).where(eq(leases.id, holder.id));
      await recordRunnerEvent(tx, holder.runnerId, "lease_released", now, {
        lease_id: holder.id,
        outcome: "expired",
      });
    }
    const [event] = await tx
      .select()
      .from(fleetEvents)
      .where(sql`${fleetEvents.id} = ${candidate.event_id} and ${fleetEvents.status} = 'received'`);
    if (event === undefined) return null;
    const [earlier] = await tx
      .select({ id: leases.id })
      .from(leases)
      .where(eq(leases.eventId, event.id))
      .limit(1);
    const [fleet] = await tx
      .update(fleets)
      .set({ fenceSeq: sql`${fleets.fenceSeq} + 1` })
      .where(eq(fleets.id, candidate.fleet_id))
      .returning();
    const lease = {
      id: newId(now),
      runnerId,
      fleetId: fleet!.id,
      workspaceId: fleet!.workspaceId,
      eventId: event.id,
      fencingToken: fleet!.fenceSeq,
      kind: earlier ? "reclaim" : "fresh",
      status: "running",
      createdAt: now,
      expiresAt: now + ctx.config.leaseTtlMs,
    };
    await tx.insert(leases).values(lease);
    await recordRunnerEvent(tx, runnerId, "lease_acquired", now, {
      lease_id: lease.id,
      fleet_id: lease.fleetId,
      fencing_token: lease.fencingToken,
    });
    const requirements = fleet!.definition.requirements;
    return {
      lease_id: lease.id,
      fleet_id: lease.fleetId,
      workspace_id: lease.workspaceId,
      event_id: lease.eventId,
      fencing_token: lease.fencingToken,
      kind: lease.kind as "fresh" | "reclaim",
      expires_at: lease.expiresAt,
      event: { event_type: event.eventType, actor: event.actor, request_json: event.requestJson },
      fleet: {
        name: fleet!.name,
        instructions: fleet!.definition.instructions,
        credentials: requirements.credentials,
        tools: requirements.tools,
        network_hosts: requirements.network_hosts,
      },
    };
  });
}

/**
 * Leases work for the runner, holding the request open up to `waitMs` until some arrives. Waiting is on
 * the work signal (this instance's inserts, and other instances' NOTIFY), with a slow re-poll as a net.
 */
export async function acquireLease(ctx: ServiceContext, runnerId: string, waitMs: number) {
  const [runner] = await ctx.db.select().from(runners).where(eq(runners.id, runnerId));
  if (runner === undefined) throw new Problem("UZ-AUTH-002", { detail: "The runner token does not verify." });
  if (runner.degraded) {
    throw new Problem("UZ-EXEC-017", {
      detail: `The runner is degraded (${runner.degradedReason}); no work is leased to it until a heartbeat satisfies its policy.`,
      current_state: "degraded",
    });
  }
  if (runner.adminState !== "active") return { lease: null, retry_after_ms: REPOLL_MS };
  const deadline = ctx.now() + waitMs;
  for (;;) {
    const ticket = ctx.work.ticket();
    const lease = await tryAcquire(ctx, runnerId, runner.labels);
    if (lease !== null) return { lease, retry_after_ms: 0 };
    const left = deadline - ctx.now();
    if (left <= 0) return { lease: null, retry_after_ms: 1_000 };
    await ctx.work.wait(ticket, Math.min(left, REPOLL_MS));
  }
}

/**
 * The lease, if the caller holds it and is still the fleet's current holder. Locks the fleet row, so
 * the check holds until the enclosing transaction ends: no newer lease can be granted meanwhile.
 */
export async function requireCurrentLease(
  tx: Database | Tx,
  runnerId: string,
  leaseId: string,
  fencingToken: number | null,
) {
  const [lease] = await tx.select().from(leases).where(eq(leases.id, leaseId));
  if (lease === undefined || lease.runnerId !== runnerId) {
    throw new Problem("UZ-RUN-001", { detail: `This runner holds no lease ${leaseId}.` });
  }
  const [fleet] = await tx
    .select({ fenceSeq: fleets.fenceSeq })
    .from(fleets)
    .where(eq(fleets.id, lease.fleetId))
    .for("update");
  const token = fencingToken ?? lease.fencingToken;
  if (
    fleet === undefined ||
    lease.status !== "running" ||
    token !== lease.fencingToken ||
    fleet.fenceSeq !== lease.fencingToken
  ) {
    throw new Problem("UZ-RUN-005", {
      detail: "This lease has been superseded or has ended; its holder may no longer write.",
      current_state: lease.status === "running" ? "superseded" : lease.status,
    });
  }
  return lease;
}

export async function renewLease(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; fencing_token: number },
) {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const lease = await requireCurrentLease(tx, runnerId, input.lease_id, input.fencing_token);
    const expiresAt = Math.min(now + ctx.config.leaseTtlMs, lease.createdAt + LEASE_MAX_MS);
    await tx.update(leases).set({ expiresAt }).where(eq(leases.id, lease.id));
    return { lease_id: lease.id, expires_at: expiresAt };
  });
}
