import { fleetEventTypes, fleetStatuses, type WaitReason } from "@fleet/contracts";
import { resultRows, sql } from "@fleet/db";
import { budgetLeft, periodOf } from "../billing/period.ts";
import { ONLINE_WINDOW_MS } from "../runners/policy.ts";
import type { ServiceContext } from "../shared/context.ts";

interface WaitingRow {
  event_id: string;
  fleet_id: string;
  fleet_name: string;
  fleet_status: string;
  event_type: string;
  actor: string;
  created_at: number | string;
  required_labels: string[];
  budget_spent: boolean;
  fleet_leased: boolean;
  any_online: boolean;
  any_accepting: boolean;
  labels_match: boolean;
}

/**
 * Why a waiting event has no runner: the first of the conditions a runner's acquire checks
 * (`services/leases/acquire-lease.ts`) that this event's fleet fails, read from the fleet's row and the pool of
 * runners as they are now. A runner "accepts" work when it is online, active and not degraded.
 */
export function waitReason(row: WaitingRow): WaitReason {
  if (row.fleet_status !== "active") return "fleet_paused";
  if (row.budget_spent) return "budget_spent";
  if (!row.any_online) return "no_runner_online";
  if (!row.any_accepting) return "runners_unavailable";
  if (!row.labels_match) return "labels_unmatched";
  if (row.fleet_leased) return "fleet_busy";
  return "queued";
}

/** An event a runner holds under a live lease is running, not waiting (its row still says `received`). */
export function isLeased(now: number) {
  return sql`exists (select 1 from leases l where l.event_id = e.id and l.status = 'running' and l.expires_at > ${now}::bigint)`;
}

/**
 * The workspace's oldest waiting events with their reasons, in one statement: the events come from the
 * workspace's partial index of waiting work, each fleet by its key, and the online runners are read once
 * (`materialized`) and tested per row, so the cost is the page's rows plus one pass over the runners.
 */
export async function waitingEvents(ctx: ServiceContext, workspaceId: string, limit: number, now: number) {
  const { period } = periodOf(now);
  const rows = resultRows<WaitingRow>(
    await ctx.db.execute(sql`
      with pool as materialized (
        select labels, (admin_state = 'active' and not degraded) as accepting from runners
        where admin_state <> 'revoked' and last_heartbeat_at >= ${now - ONLINE_WINDOW_MS}::bigint
      )
      select e.id as event_id, f.id as fleet_id, f.name as fleet_name, f.status as fleet_status,
             e.event_type, e.actor, e.created_at,
             coalesce(f.definition -> 'requirements' -> 'runner_labels', '[]'::jsonb) as required_labels,
             not ${budgetLeft(period)} as budget_spent,
             (f.leased_until is not null and f.leased_until > ${now}::bigint) as fleet_leased,
             exists (select 1 from pool) as any_online,
             exists (select 1 from pool where accepting) as any_accepting,
             exists (
               select 1 from pool
               where accepting
                 and coalesce(f.definition -> 'requirements' -> 'runner_labels', '[]'::jsonb) <@ pool.labels
             ) as labels_match
      from fleet_events e
      join fleets f on f.id = e.fleet_id
      where e.workspace_id = ${workspaceId}::uuid and e.status = 'received' and not ${isLeased(now)}
      order by e.created_at, e.id
      limit ${limit}`),
  );
  return rows.map((row) => {
    const createdAt = Number(row.created_at);
    return {
      event_id: row.event_id,
      fleet_id: row.fleet_id,
      fleet_name: row.fleet_name,
      fleet_status: fleetStatuses.find((status) => status === row.fleet_status) ?? "active",
      event_type: fleetEventTypes.find((type) => type === row.event_type) ?? "chat",
      actor: row.actor,
      created_at: createdAt,
      waiting_ms: Math.max(0, now - createdAt),
      reason: waitReason(row),
      required_labels: row.required_labels,
    };
  });
}
