import { type Database, resultRows, sql } from "@fleet/db";
import { spendThisPeriod } from "../billing/period.ts";
import { LEASE_MAX_MS } from "./lease-terms.ts";

/** One renewal waiting for its batch. */
export interface RenewRow {
  /** The row's own id, unique in the queue. */
  id: string;
  leaseId: string;
  runnerId: string;
  fencingToken: number;
  at: number;
  ttlMs: number;
  period: string;
}

/**
 * The renewals of one batch (issue 34), in one statement and one commit: each lease whose caller is its
 * runner, with its token the lease's and the fleet's current one, still running, and whose run has budget
 * left (its own cap, then its fleet's period budget, as `runRefusal` reads them) is extended to
 * `at + ttlMs`, never past `created_at + 12 h`, and its fleet's `leased_until` with it. Each fleet row is
 * locked as the single renewal locked it (`for no key update`: acquires, reports and other fenced writes
 * wait; a write that changed the row meanwhile is seen, and the checks made again on it), in id order as
 * the report and charge batches lock them, so two batches never deadlock on each other's fleets. Two renewals of
 * one lease never share a batch (the queue's conflict key). A renewal the statement did not extend is
 * answered null and told why by the single path (`renewAlone`), off the hot one.
 */
export async function renewMany(db: Database, rows: RenewRow[]): Promise<Map<string, number | null>> {
  const column = <K extends keyof RenewRow>(key: K) => sql.param(rows.map((row) => row[key]));
  const renewed = resultRows<{ row_id: string; expires_at: number | string }>(
    await db.execute(sql`
      with i as (
        select * from unnest(${column("id")}::uuid[], ${column("leaseId")}::uuid[], ${column("runnerId")}::uuid[],
          ${column("fencingToken")}::bigint[], ${column("at")}::bigint[], ${column("ttlMs")}::bigint[],
          ${column("period")}::text[])
          as i(row_id, lease_id, runner_id, token, at, ttl_ms, period)
      ),
      held as (
        select i.row_id, l.id, l.fleet_id, least(i.at + i.ttl_ms, l.created_at + ${LEASE_MAX_MS}::bigint) as expires_at
        from i
        cross join lateral (
          select l.* from leases l where l.id = i.lease_id offset 0
        ) l
        join fleets f on f.id = l.fleet_id
        where l.runner_id = i.runner_id and l.status = 'running' and l.fencing_token = i.token
          and f.fence_seq = l.fencing_token
          and (f.run_budget_nanos is null or l.usage_nanos < f.run_budget_nanos)
          and (f.period_budget_nanos is null
            or ${spendThisPeriod(sql`i.period`)} + l.usage_nanos - l.model_nanos < f.period_budget_nanos)
        order by f.id
        for no key update of f
      ),
      renewed as (
        update leases l set expires_at = held.expires_at
        from held where l.id = held.id and l.status = 'running'
        returning l.id, l.fleet_id, l.expires_at
      ),
      fleet as (
        update fleets f set leased_until = renewed.expires_at
        from renewed where f.id = renewed.fleet_id
      )
      select held.row_id, renewed.expires_at from held join renewed on renewed.id = held.id`),
  );
  const answers = new Map<string, number | null>(rows.map((row) => [row.id, null]));
  for (const row of renewed) answers.set(row.row_id, Number(row.expires_at));
  return answers;
}
