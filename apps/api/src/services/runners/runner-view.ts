import { and, type Database, desc, eq, inArray, leases, runners, type SQL, sql, type Tx } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { ONLINE_WINDOW_MS } from "./policy.ts";

type RunnerRow = typeof runners.$inferSelect;

interface LeaseCounts {
  active: number;
  activeFleets: number;
  acquired: number;
  succeeded: number;
  failed: number;
  expired: number;
}

/** Lease counters of the runners named, computed from their leases as of `now`. */
export async function leaseCounts(db: Database | Tx, runnerIds: string[], now: number) {
  const counts = new Map<string, LeaseCounts>();
  if (runnerIds.length === 0) return counts;
  const live = sql`${leases.status} = 'running' and ${leases.expiresAt} > ${now}`;
  const rows = await db
    .select({
      runnerId: leases.runnerId,
      active: sql<number>`count(*) filter (where ${live})`.mapWith(Number),
      activeFleets: sql<number>`count(distinct ${leases.fleetId}) filter (where ${live})`.mapWith(Number),
      acquired: sql<number>`count(*)`.mapWith(Number),
      succeeded: sql<number>`count(*) filter (where ${leases.status} = 'succeeded')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${leases.status} = 'failed')`.mapWith(Number),
      expired:
        sql<number>`count(*) filter (where ${leases.status} = 'expired' or (${leases.status} = 'running' and ${leases.expiresAt} <= ${now}))`.mapWith(
          Number,
        ),
    })
    .from(leases)
    .where(inArray(leases.runnerId, runnerIds))
    .groupBy(leases.runnerId);
  for (const row of rows) counts.set(row.runnerId, row);
  return counts;
}

/** The runner's live leases as of `now`, counted as its operator view counts them. */
export async function liveLeaseCount(ctx: ServiceContext, runnerId: string, now: number): Promise<number> {
  return (await leaseCounts(ctx.db, [runnerId], now)).get(runnerId)?.active ?? 0;
}

const none: LeaseCounts = { active: 0, activeFleets: 0, acquired: 0, succeeded: 0, failed: 0, expired: 0 };

/** The operator's intent, with `drained` derived: a draining runner that holds no live lease. */
export function runnerStatus(row: Pick<RunnerRow, "adminState">, activeLeases: number) {
  return row.adminState === "draining" && activeLeases === 0 ? ("drained" as const) : row.adminState;
}

export function toRunnerView(row: RunnerRow, counts: LeaseCounts, now: number) {
  const liveness =
    counts.active > 0
      ? ("busy" as const)
      : row.lastHeartbeatAt === null
        ? ("registered" as const)
        : now - row.lastHeartbeatAt <= ONLINE_WINDOW_MS
          ? ("online" as const)
          : ("offline" as const);
  return {
    runner_id: row.id,
    host_id: row.hostId,
    labels: row.labels,
    assigned_policy: row.assignedPolicy,
    status: runnerStatus(row, counts.active),
    liveness,
    achievable: row.capabilityReport,
    degraded: row.degraded,
    degraded_reason: row.degradedReason,
    last_heartbeat_at: row.lastHeartbeatAt,
    active_lease_count: counts.active,
    active_fleet_count: counts.activeFleets,
    leases_acquired: counts.acquired,
    leases_succeeded: counts.succeeded,
    leases_failed: counts.failed,
    leases_expired: counts.expired,
    created_at: row.createdAt,
    revoked_at: row.revokedAt,
  };
}

/** Runners as operators read them, newest first. */
export async function runnerViews(
  db: Database | Tx,
  where: SQL | undefined,
  limit: number,
  now: number,
  order: SQL[] = [desc(runners.createdAt), desc(runners.id)],
) {
  const rows = await db
    .select()
    .from(runners)
    .where(where)
    .orderBy(...order)
    .limit(limit);
  const counts = await leaseCounts(
    db,
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => ({ row, view: toRunnerView(row, counts.get(row.id) ?? none, now) }));
}

export async function runnerView(db: Database | Tx, runnerId: string, now: number) {
  const [found] = await runnerViews(db, and(eq(runners.id, runnerId)), 1, now);
  return found?.view;
}
