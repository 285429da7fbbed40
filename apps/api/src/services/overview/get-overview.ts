import { OVERVIEW_COUNT_CAP, type Overview } from "@fleet/contracts";
import {
  and,
  approvalGates,
  asc,
  desc,
  eq,
  fleetEvents,
  fleets,
  gte,
  resultRows,
  schedules,
  sql,
} from "@fleet/db";
import { ONLINE_WINDOW_MS } from "../runners/policy.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { isLeased, waitingEvents } from "./waiting.ts";

/** Each panel lists this many rows; its total says how many there are (up to the cap). */
export const OVERVIEW_PANEL_ROWS = 10;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Failure details and sync errors are cut to this many characters: the overview points, it does not tell all. */
const TEXT_CUT = 200;

/**
 * A workspace's overview: what needs a person now. A fixed number of bounded statements whatever the
 * workspace holds: each list reads its panel's rows by a (partial) index and stops at the panel's size,
 * and the totals are counted in one statement, each stopping at the cap.
 */
export async function getOverview(
  ctx: ServiceContext,
  tenantId: string,
  workspaceId: string,
  withSpend: boolean,
): Promise<Overview> {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  const now = ctx.now();
  const since = now - DAY_MS;
  const [totals, gates, waiting, runners, failed, failedSchedules, spend] = await Promise.all([
    panelTotals(ctx, workspaceId, now),
    pendingGates(ctx, workspaceId),
    waitingEvents(ctx, workspaceId, OVERVIEW_PANEL_ROWS, now),
    runnerCounts(ctx, now),
    failedRuns(ctx, workspaceId, since),
    failedSyncs(ctx, workspaceId),
    withSpend ? spendToday(ctx, tenantId, workspaceId, now) : Promise.resolve(null),
  ]);
  return {
    workspace_id: workspaceId,
    generated_at: now,
    pending_approvals: { total: totals.gates, items: gates },
    waiting_events: { total: totals.waiting, items: waiting },
    runners,
    failed_runs: { total: totals.failed, since, items: failed },
    failed_schedules: { total: totals.schedules, items: failedSchedules },
    spend_today: spend,
  };
}

interface Totals {
  gates: number;
  waiting: number;
  failed: number;
  schedules: number;
}

async function panelTotals(ctx: ServiceContext, workspaceId: string, now: number): Promise<Totals> {
  const since = now - DAY_MS;
  const cap = OVERVIEW_COUNT_CAP;
  const ws = sql`${workspaceId}::uuid`;
  const [row] = resultRows<Record<keyof Totals, number | string>>(
    await ctx.db.execute(sql`
      select
        (select count(*) from (select 1 from approval_gates
          where workspace_id = ${ws} and status = 'pending' limit ${cap}) s) as gates,
        (select count(*) from (select 1 from fleet_events e
          where e.workspace_id = ${ws} and e.status = 'received' and not ${isLeased(now)}
          limit ${cap}) s) as waiting,
        (select count(*) from (select 1 from fleet_events
          where workspace_id = ${ws} and status = 'fleet_error' and updated_at >= ${since}::bigint
          limit ${cap}) s) as failed,
        (select count(*) from (select 1 from schedules
          where workspace_id = ${ws} and sync = 'failed' limit ${cap}) s) as schedules`),
  );
  return {
    gates: Number(row?.gates ?? 0),
    waiting: Number(row?.waiting ?? 0),
    failed: Number(row?.failed ?? 0),
    schedules: Number(row?.schedules ?? 0),
  };
}

/** Oldest first, as the inbox: the oldest is closest to its timeout. */
function pendingGates(ctx: ServiceContext, workspaceId: string) {
  return ctx.db
    .select({
      gate_id: approvalGates.id,
      fleet_id: approvalGates.fleetId,
      fleet_name: sql<string>`coalesce(${fleets.name}, ${approvalGates.fleetName})`,
      gate_kind: approvalGates.gateKind,
      tool_name: approvalGates.toolName,
      action_name: approvalGates.actionName,
      requested_at: approvalGates.requestedAt,
      timeout_at: approvalGates.timeoutAt,
    })
    .from(approvalGates)
    .leftJoin(fleets, eq(fleets.id, approvalGates.fleetId))
    .where(and(eq(approvalGates.workspaceId, workspaceId), eq(approvalGates.status, "pending")))
    .orderBy(asc(approvalGates.requestedAt), asc(approvalGates.id))
    .limit(OVERVIEW_PANEL_ROWS);
}

/**
 * The platform's runners counted as the runners page shows them: liveness derived on read (busy holds a
 * live lease; online heartbeated within the window), revoked runners left out.
 */
async function runnerCounts(ctx: ServiceContext, now: number): Promise<Overview["runners"]> {
  const fresh = now - ONLINE_WINDOW_MS;
  const [row] = resultRows<Record<keyof Overview["runners"], number | string>>(
    await ctx.db.execute(sql`
      select
        count(*) filter (where not busy and last_heartbeat_at is null) as registered,
        count(*) filter (where not busy and last_heartbeat_at >= ${fresh}::bigint) as online,
        count(*) filter (where busy) as busy,
        count(*) filter (where not busy and last_heartbeat_at < ${fresh}::bigint) as offline,
        count(*) filter (where admin_state = 'cordoned') as cordoned,
        count(*) filter (where admin_state = 'draining') as draining,
        count(*) filter (where degraded) as degraded
      from (
        select r.last_heartbeat_at, r.admin_state, r.degraded,
               exists (select 1 from leases l where l.runner_id = r.id and l.status = 'running'
                       and l.expires_at > ${now}::bigint) as busy
        from runners r where r.admin_state <> 'revoked'
      ) r`),
  );
  const count = (key: keyof Overview["runners"]) => Number(row?.[key] ?? 0);
  return {
    registered: count("registered"),
    online: count("online"),
    busy: count("busy"),
    offline: count("offline"),
    cordoned: count("cordoned"),
    draining: count("draining"),
    degraded: count("degraded"),
  };
}

/** Newest failure first, from the workspace's partial index of failed runs. */
function failedRuns(ctx: ServiceContext, workspaceId: string, since: number) {
  return ctx.db
    .select({
      event_id: fleetEvents.id,
      fleet_id: fleetEvents.fleetId,
      fleet_name: fleets.name,
      failure_label: fleetEvents.failureLabel,
      failure_detail: sql<string | null>`left(${fleetEvents.failureDetail}, ${TEXT_CUT})`,
      failed_at: fleetEvents.updatedAt,
    })
    .from(fleetEvents)
    .innerJoin(fleets, eq(fleets.id, fleetEvents.fleetId))
    .where(
      and(
        eq(fleetEvents.workspaceId, workspaceId),
        eq(fleetEvents.status, "fleet_error"),
        gte(fleetEvents.updatedAt, since),
      ),
    )
    .orderBy(desc(fleetEvents.updatedAt), desc(fleetEvents.id))
    .limit(OVERVIEW_PANEL_ROWS);
}

/** The schedules the scheduler has not taken, the latest failure first. */
function failedSyncs(ctx: ServiceContext, workspaceId: string) {
  return ctx.db
    .select({
      schedule_id: schedules.id,
      fleet_id: schedules.fleetId,
      fleet_name: fleets.name,
      cron: schedules.cron,
      timezone: schedules.timezone,
      last_error: sql<string | null>`left(${schedules.lastError}, ${TEXT_CUT})`,
      updated_at: schedules.updatedAt,
    })
    .from(schedules)
    .innerJoin(fleets, eq(fleets.id, schedules.fleetId))
    .where(and(eq(schedules.workspaceId, workspaceId), eq(schedules.sync, "failed")))
    .orderBy(desc(schedules.updatedAt), desc(schedules.id))
    .limit(OVERVIEW_PANEL_ROWS);
}

/** This workspace's charges since UTC midnight, from the tenant's charges index. */
async function spendToday(ctx: ServiceContext, tenantId: string, workspaceId: string, now: number) {
  const date = new Date(now);
  const since = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const [row] = resultRows<{ cost: number | string | null; runs: number | string }>(
    await ctx.db.execute(sql`
      select sum(cost_nanos) as cost, count(*) as runs from charges
      where tenant_id = ${tenantId}::uuid and created_at >= ${since}::bigint
        and workspace_id = ${workspaceId}::uuid`),
  );
  return { since, cost_nanos: Number(row?.cost ?? 0), runs: Number(row?.runs ?? 0) };
}
