import type { Socket } from "node:net";
import { type Lease, Problem } from "@fleet/contracts";
import { eq, leases, resultRows, runners, type StoredMcpServer, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { budgetLeft, periodOf } from "../billing/period.ts";
import { recordRunnerEvent } from "../runners/runner-events.ts";
import type { ServiceContext } from "../shared/context.ts";
import { uniqueViolation } from "../shared/errors.ts";
import { withPolicyGates } from "./tool-gates.ts";

/** An idle acquire re-polls at least this often, whatever the wake-ups say. */
const REPOLL_MS = 5_000;
/** What a poll that arrives at an instance already shutting down is told to wait before asking again. */
const DRAINING_RETRY_MS = 1_000;

interface Claimed {
  lease_id: string;
  fleet_id: string;
  workspace_id: string;
  event_id: string;
  fencing_token: number | string;
  kind: "fresh" | "reclaim";
  expires_at: number | string;
  event_type: string;
  actor: string;
  request_json: string;
  name: string;
  definition: {
    instructions: string;
    requirements: {
      credentials: string[];
      tools: string[];
      tool_approvals?: string[];
      tool_blast_radius?: Record<string, string>;
      agent_max_steps?: number;
      network_hosts: string[];
      mcp_servers?: StoredMcpServer[];
    };
  };
}

/**
 * One attempt to lease work, in one statement: the oldest waiting event of an active fleet whose
 * required labels the runner has and that no live lease holds; the fleet row is locked (concurrent
 * acquires skip it), the fleet's fencing sequence is bumped, and the lease and its history row are
 * written. The insert violates the one-running-lease-per-fleet index when the fleet still holds a lease
 * past its time (it must be marked expired first) or one a concurrent acquire committed after this
 * statement's snapshot: `"conflict"` then, and the caller settles lapsed leases and tries again.
 *
 * The rows are locked `for no key update`, the lock the update of the fleet's fencing sequence takes
 * anyway: it excludes other acquires, fenced writes, reports and deletes as `for update` did, but not the
 * key share an event insert's foreign key (or a keyed send's statement) holds on the fleet, so a fleet
 * receiving messages is neither passed over by leasing nor made to wait for its reports and renewals.
 *
 * The event row is locked too. The statement reads from a snapshot taken as it starts; locking a row
 * re-reads that row's newest version, and only it. A concurrent runner can lease and report the
 * event (setting its fleet free again) between that snapshot and this statement's reaching the fleet:
 * with only the fleet locked, the event still read `received` and was leased a second time (3–8 times
 * in 8 s of lease cycles with 32 workers here). Locked, the event's newest version says it is done.
 *
 * Each candidate event's fleet is looked up (and locked) by its key in a lateral subquery fenced with
 * `offset 0`: the prepared statement's cached generic plan otherwise joined the events to a materialised
 * scan of every fleet and re-read that list for each event it passed over (the events of fleets already
 * leased come first, oldest-first), which cost more with every fleet and held lease cycles to ~640/s.
 * The runner's row is read once (`materialized`): inlined, it was looked up again for every event passed
 * over, a quarter of the acquire's buffer reads with 32 fleets in flight.
 */
async function tryAcquire(ctx: ServiceContext, runnerId: string): Promise<Lease | null | "conflict"> {
  const now = ctx.now();
  const leaseId = newId(now);
  // A fleet whose budget this period is spent takes no new work (docs/decisions/billing.md, "Billing and budgets").
  const { period } = periodOf(now);
  let rows: Claimed[];
  try {
    rows = resultRows<Claimed>(
      await ctx.db.execute(sql`
        with r as materialized (
          select labels from runners
          where id = ${runnerId} and not degraded and admin_state = 'active'
        ),
        c as (
          select f.id as fleet_id, f.workspace_id, f.name, f.definition,
                 e.id as event_id, e.event_type, e.actor, e.request_json
          from r, fleet_events e
          cross join lateral (
            select f.id, f.workspace_id, f.name, f.definition from fleets f
            where f.id = e.fleet_id
              and f.status = 'active'
              and coalesce(f.definition -> 'requirements' -> 'runner_labels', '[]'::jsonb) <@ r.labels
              and (f.leased_until is null or f.leased_until <= ${now}::bigint)
              and ${budgetLeft(period)}
            offset 0
          ) f
          where e.status = 'received'
          order by e.created_at, e.id
          limit 1
          for no key update of e, f skip locked
        ),
        fenced as (
          update fleets f set fence_seq = f.fence_seq + 1, leased_until = ${now + ctx.config.leaseTtlMs}::bigint
          from c where f.id = c.fleet_id
          returning f.fence_seq
        ),
        lease as (
          insert into leases (id, runner_id, fleet_id, workspace_id, event_id, fencing_token, kind, status, created_at, expires_at)
          select ${leaseId}::uuid, ${runnerId}::uuid, c.fleet_id, c.workspace_id, c.event_id, fenced.fence_seq,
                 case when exists (select 1 from leases p where p.event_id = c.event_id) then 'reclaim' else 'fresh' end,
                 'running', ${now}::bigint, ${now + ctx.config.leaseTtlMs}::bigint
          from c, fenced
          returning id, fencing_token, kind, expires_at
        ),
        history as (
          insert into runner_events (id, runner_id, event_type, detail, created_at)
          select ${newId(now)}::uuid, ${runnerId}::uuid, 'lease_acquired',
                 jsonb_build_object('lease_id', lease.id, 'fleet_id', c.fleet_id, 'fencing_token', lease.fencing_token),
                 ${now}::bigint
          from lease, c
        )
        select lease.id as lease_id, c.fleet_id, c.workspace_id, c.event_id, lease.fencing_token, lease.kind,
               lease.expires_at, c.event_type, c.actor, c.request_json, c.name, c.definition
        from lease, c`),
    );
  } catch (error) {
    if (uniqueViolation(error, "leases_one_running_per_fleet")) return "conflict";
    throw error;
  }
  const [claimed] = rows;
  if (claimed === undefined) return null;
  const requirements = claimed.definition.requirements;
  return {
    lease_id: claimed.lease_id,
    fleet_id: claimed.fleet_id,
    workspace_id: claimed.workspace_id,
    event_id: claimed.event_id,
    fencing_token: Number(claimed.fencing_token),
    kind: claimed.kind,
    expires_at: Number(claimed.expires_at),
    event: { event_type: claimed.event_type, actor: claimed.actor, request_json: claimed.request_json },
    fleet: {
      name: claimed.name,
      instructions: claimed.definition.instructions,
      credentials: requirements.credentials,
      tools: requirements.tools,
      tool_approvals: requirements.tool_approvals ?? [],
      ...(requirements.tool_blast_radius === undefined
        ? {}
        : { tool_blast_radius: requirements.tool_blast_radius }),
      network_hosts: requirements.network_hosts,
      mcp_servers: requirements.mcp_servers ?? [],
      ...(requirements.agent_max_steps === undefined ? {} : { max_steps: requirements.agent_max_steps }),
    },
  };
}

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

/** Marks leases past their time expired, so their fleets' work can be handed out again. */
export async function expireLapsedLeases(ctx: ServiceContext): Promise<void> {
  const now = ctx.now();
  const expired = await ctx.db.transaction(async (tx) => {
    const lapsed = await tx
      .update(leases)
      .set({ status: "expired", endedAt: now, deliveredSealed: null })
      .where(sql`${leases.status} = 'running' and ${leases.expiresAt} <= ${now}`)
      .returning({ id: leases.id, runnerId: leases.runnerId });
    for (const lease of lapsed) {
      await recordRunnerEvent(tx, lease.runnerId, "lease_released", now, {
        lease_id: lease.id,
        outcome: "expired",
      });
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
