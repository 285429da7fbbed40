import type { Lease } from "@fleet/contracts";
import { type Database, literalLimit, resultRows, type StoredMcpServer, sql } from "@fleet/db";
import { budgetLeft, periodOf } from "../billing/period.ts";

/** One acquire waiting for its batch: the ids it will write, minted by the request. */
export interface ClaimRow {
  /** The lease's id, if one is granted. */
  id: string;
  runnerId: string;
  historyId: string;
  at: number;
  ttlMs: number;
}

/** What a batch answers an acquire: its lease, none (nothing waits for it), or go alone (`claimOne`). */
export type ClaimAnswer = Lease | null | "alone";

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
 * statement's snapshot: the unique violation is thrown, and the caller settles lapsed leases and tries again.
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
export async function claimOne(db: Database, row: ClaimRow): Promise<Lease | null> {
  const now = row.at;
  // A fleet whose budget this period is spent takes no new work (docs/decisions/billing.md, "Billing and budgets").
  const { period } = periodOf(now);
  const rows = resultRows<Claimed>(
    await db.execute(sql`
        with r as materialized (
          select labels from runners
          where id = ${row.runnerId} and not degraded and admin_state = 'active'
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
        a as (
          select c.*, ${row.id}::uuid as lease_id, ${row.runnerId}::uuid as runner_id, ${row.historyId}::uuid as history_id
          from c
        ),
        ${claimWrites(now, now + row.ttlMs)}
        select * from claimed`),
  );
  const [claimed] = rows;
  return claimed === undefined ? null : leaseOf(claimed);
}

/**
 * The acquires of one batch (issue 34), in one statement and one commit: the oldest waiting events, up
 * to the acquires' count rounded up to a power of two, are found and locked as `claimOne` finds and locks
 * one (a fleet any of the batch's runners may run); each fleet's oldest of them is its claim, and the k-th
 * oldest claim goes to the k-th acquire when that runner's labels allow it. Each claimed fleet's fencing
 * sequence is bumped and its lease and history row written as one acquire's are. An acquire left without a claim (two of the
 * events were one fleet's, the labels did not fit, its runner may take no work) is answered `"alone"` and
 * tries `claimOne` itself, so a batch never makes a runner wait while work it may take is waiting. A
 * batch of one is `claimOne`. A lapsed lease still marked running fails the whole statement (the unique
 * index): each acquire then goes alone, and the one that met it settles lapsed leases as before.
 *
 * The number of events it looks at is written into the statement (`literalLimit`: with a parameter it
 * was planned on every call, a fifth of the database's CPU per lease cycle), rounded up to a power of two
 * so the texts stay few (nine up to `MAX_ROWS`), at the cost of locking at most twice the events a batch
 * needs for the statement's duration (the events past the acquires' count are found, not leased).
 *
 * A fleet the statement locked and did not lease was hidden (`skip locked`) from the acquires running
 * beside it, which may have found nothing and been answered no lease: `passedOver` is told after the
 * commit, and wakes them (`WorkSignal.announce`) to look again rather than wait for the next re-poll.
 */
export async function claimMany(
  db: Database,
  rows: ClaimRow[],
  passedOver?: () => void,
): Promise<Map<string, ClaimAnswer>> {
  if (rows.length === 1) return new Map([[rows[0]!.id, await claimOne(db, rows[0]!)]]);
  const now = Math.max(...rows.map((row) => row.at));
  const until = now + rows[0]!.ttlMs;
  const { period } = periodOf(now);
  const column = <K extends keyof ClaimRow>(key: K) => sql.param(rows.map((row) => row[key]));
  const claimed = resultRows<Claimed & { found: number | string; fleets: number | string }>(
    await db.execute(sql`
        with q as (
          select * from unnest(${column("id")}::uuid[], ${column("runnerId")}::uuid[], ${column("historyId")}::uuid[])
            with ordinality as q(lease_id, runner_id, history_id, n)
        ),
        r as materialized (
          select q.lease_id, q.runner_id, q.history_id, u.labels, row_number() over (order by q.n) as k
          from q join runners u on u.id = q.runner_id
          where not u.degraded and u.admin_state = 'active'
        ),
        c as (
          select f.id as fleet_id, f.workspace_id, f.name, f.definition, f.needs,
                 e.id as event_id, e.event_type, e.actor, e.request_json, e.created_at
          from fleet_events e
          cross join lateral (
            select f.id, f.workspace_id, f.name, f.definition,
                   coalesce(f.definition -> 'requirements' -> 'runner_labels', '[]'::jsonb) as needs
            from fleets f
            where f.id = e.fleet_id
              and f.status = 'active'
              and exists (
                select 1 from r
                where coalesce(f.definition -> 'requirements' -> 'runner_labels', '[]'::jsonb) <@ r.labels
              )
              and (f.leased_until is null or f.leased_until <= ${now}::bigint)
              and ${budgetLeft(period)}
            offset 0
          ) f
          where e.status = 'received' and exists (select 1 from r)
          order by e.created_at, e.id
          ${literalLimit(2 ** Math.ceil(Math.log2(rows.length)))}
          for no key update of e, f skip locked
        ),
        d as (
          select distinct on (fleet_id) * from c order by fleet_id, created_at, event_id
        ),
        a as (
          select d.*, r.lease_id, r.runner_id, r.history_id
          from (select d.*, row_number() over (order by d.created_at, d.event_id) as k from d) d
          join r on r.k = d.k
          where d.needs <@ r.labels
        ),
        ${claimWrites(now, until)}
        select s.found, s.fleets, x.* from (
          select (select count(*) from c) as found, (select count(*) from d) as fleets
        ) s left join claimed x on true`),
  );
  const leased = new Map<string, Lease>();
  for (const row of claimed) if (row.lease_id !== null) leased.set(row.lease_id, leaseOf(row));
  // Fewer waiting events than acquires, and every fleet among them leased: nothing more is waiting for
  // any of them (as `claimOne` would have found); otherwise the rest try alone.
  const summary = claimed[0];
  const drained =
    summary !== undefined && Number(summary.found) < rows.length && Number(summary.fleets) === leased.size;
  if (summary !== undefined && Number(summary.fleets) > leased.size) passedOver?.();
  return new Map(rows.map((row) => [row.id, leased.get(row.id) ?? (drained ? null : "alone")]));
}

/**
 * A claim's writes, from the CTE `a` of claimed events (each with its fleet's columns and the lease,
 * runner and history ids of the acquire it goes to): each fleet's fencing sequence is bumped, and the
 * lease and its history row are written. `claimed` is what the acquires are answered.
 */
function claimWrites(now: number, until: number) {
  return sql`
        fenced as (
          update fleets f set fence_seq = f.fence_seq + 1, leased_until = ${until}::bigint
          from a where f.id = a.fleet_id
          returning f.id, f.fence_seq
        ),
        lease as (
          insert into leases (id, runner_id, fleet_id, workspace_id, event_id, fencing_token, kind, status, created_at, expires_at)
          select a.lease_id, a.runner_id, a.fleet_id, a.workspace_id, a.event_id, fenced.fence_seq,
                 case when exists (select 1 from leases p where p.event_id = a.event_id) then 'reclaim' else 'fresh' end,
                 'running', ${now}::bigint, ${until}::bigint
          from a join fenced on fenced.id = a.fleet_id
          returning id, fencing_token, kind, expires_at
        ),
        history as (
          insert into runner_events (id, runner_id, event_type, detail, created_at)
          select a.history_id, a.runner_id, 'lease_acquired',
                 jsonb_build_object('lease_id', lease.id, 'fleet_id', a.fleet_id, 'fencing_token', lease.fencing_token),
                 ${now}::bigint
          from lease join a on a.lease_id = lease.id
        ),
        claimed as (
          select lease.id as lease_id, a.fleet_id, a.workspace_id, a.event_id, lease.fencing_token, lease.kind,
                 lease.expires_at, a.event_type, a.actor, a.request_json, a.name, a.definition
          from lease join a on a.lease_id = lease.id
        )`;
}

function leaseOf(claimed: Claimed): Lease {
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
