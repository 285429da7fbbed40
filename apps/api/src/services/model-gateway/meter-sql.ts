import { type Database, resultRows, sql, type Tx } from "@fleet/db";
import { spendThisPeriod } from "../billing/period.ts";

export interface CallRef {
  leaseId: string;
  fleetId: string;
  /** What the call reserved at admission: given back by its charge or its release. */
  reserved: number;
}

/** The fleet as a charge left it (its fields null when the fleet is gone): what budget alerts need. */
export interface ChargedFleet {
  id: string | null;
  tenant_id: string;
  workspace_id: string;
  period_budget_nanos: number | string | null;
  period_spend_nanos: number | string;
  budget_alert_percents: number[] | string;
}

export type Charge = CallRef & { cost: number; period: string };

/**
 * The charge as one statement. The fleet row is locked first (`g`), as admission and the report lock
 * it, so the three queue in one order and cannot deadlock; then the lease takes the cost and gives back
 * the reservation, and the fleet is debited. `late` false: only a running lease is charged (null when it
 * has ended, and the caller takes the late path).
 */
function charge(db: Database | Tx, c: Charge, late: boolean) {
  return db.execute(sql`
    with g as (select id from fleets where id = ${c.fleetId}::uuid for no key update),
    l as (
      update leases l set usage_nanos = l.usage_nanos + ${c.cost}::bigint,
        model_nanos = l.model_nanos + ${c.cost}::bigint,
        reserved_nanos = greatest(0, l.reserved_nanos - ${c.reserved}::bigint)
      from (select count(*) from g) locked
      where l.id = ${c.leaseId}::uuid and (${late}::boolean or l.status = 'running')
      returning l.fleet_id
    ),
    d as (
      update fleets f set
        budget_used_nanos = f.budget_used_nanos + ${c.cost}::bigint,
        charged_nanos = f.charged_nanos + ${c.cost}::bigint,
        period_spend_nanos = ${spendThisPeriod(c.period)} + ${c.cost}::bigint,
        spend_period = ${c.period}
      from l where f.id = l.fleet_id
      returning f.id, f.tenant_id, f.workspace_id, f.period_budget_nanos, f.period_spend_nanos,
        f.budget_alert_percents
    )
    select d.* from l left join d on true`);
}

/** One call's charge in a batch (chargeBatchStatement): `id` names the row, not the call's lease. */
export interface ChargeRow extends Charge {
  id: string;
}

/** A batched charge's answer: whether its lease still ran (else the late path charges it), and its fleet. */
export interface BatchCharged {
  charged: boolean;
  fleet: ChargedFleet | null;
  /** The first of its fleet's rows in the batch: the one that records the budget alerts the batch crossed. */
  alerts: boolean;
}

/**
 * The charges of many calls as one statement and one commit (the gateway's GroupCommit, meter.ts): the
 * batch's fleet rows are locked first, in id order (two batches, admissions and reports never lock them
 * in crossed orders), then each running lease takes the sum of its calls' costs and gives back the sum of
 * their reservations, and each fleet is debited the sum of its leases'. The batch is dated by its latest
 * period (the calls of one batch end within milliseconds of each other). A row whose lease no longer
 * runs is answered `charged: false`, and charged alone by the late path.
 */
export async function chargeBatchStatement(
  db: Database,
  rows: ChargeRow[],
): Promise<Map<string, BatchCharged>> {
  const column = <K extends keyof ChargeRow>(key: K) => sql.param(rows.map((row) => row[key]));
  const period = rows
    .map((row) => row.period)
    .sort()
    .at(-1)!;
  const charged = resultRows<ChargedFleet & { lease_id: string }>(
    await db.execute(sql`
    with c as (
      select lease_id, fleet_id, sum(cost)::bigint as cost, sum(reserved)::bigint as reserved
      from unnest(${column("leaseId")}::uuid[], ${column("fleetId")}::uuid[], ${column("cost")}::bigint[],
                  ${column("reserved")}::bigint[]) as c(lease_id, fleet_id, cost, reserved)
      group by lease_id, fleet_id
    ),
    g as (select id from fleets where id in (select fleet_id from c) order by id for no key update),
    l as (
      update leases l set usage_nanos = l.usage_nanos + c.cost, model_nanos = l.model_nanos + c.cost,
        reserved_nanos = greatest(0, l.reserved_nanos - c.reserved)
      from c, (select count(*) from g) locked
      where l.id = c.lease_id and l.status = 'running'
      returning l.id, l.fleet_id, c.cost
    ),
    s as (select fleet_id, sum(cost)::bigint as cost from l group by fleet_id),
    d as (
      update fleets f set
        budget_used_nanos = f.budget_used_nanos + s.cost,
        charged_nanos = f.charged_nanos + s.cost,
        period_spend_nanos = ${spendThisPeriod(period)} + s.cost,
        spend_period = ${period}
      from s where f.id = s.fleet_id
      returning f.id, f.tenant_id, f.workspace_id, f.period_budget_nanos, f.period_spend_nanos,
        f.budget_alert_percents
    )
    select l.id as lease_id, d.* from l left join d on d.id = l.fleet_id`),
  );
  const byLease = new Map(charged.map(({ lease_id, ...fleet }) => [lease_id, fleet]));
  const alerting = new Set<string>();
  return new Map<string, BatchCharged>(
    rows.map((row): [string, BatchCharged] => {
      const fleet = byLease.get(row.leaseId);
      if (fleet === undefined) return [row.id, { charged: false, fleet: null, alerts: false }];
      const first = !alerting.has(row.fleetId);
      alerting.add(row.fleetId);
      return [row.id, { charged: true, fleet, alerts: first }];
    }),
  );
}

/**
 * Charges a call that ended after its lease (a stream outliving its runner's report): the lease and the
 * fleet as usual, and, when the lease's report was written, its charge row and its event's cost too, so
 * the charges list and the events table still show the whole run. One transaction; the fleet row is
 * locked by its first statement, so the report has committed and the later statements (each with a
 * snapshot of its own) see the charge row it inserted.
 */
export async function chargeLateStatements(db: Database, c: Charge): Promise<ChargedFleet | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from fleets where id = ${c.fleetId}::uuid for no key update`);
    const fleet = resultRows<ChargedFleet>(await charge(tx, c, true))[0] ?? null;
    await tx.execute(sql`
      with c as (
        update charges set cost_nanos = cost_nanos + ${c.cost}::bigint
        where event_id = (select event_id from leases where id = ${c.leaseId}::uuid)
          and lease_id = ${c.leaseId}::uuid
        returning event_id
      )
      update fleet_events e set cost_nanos = coalesce(e.cost_nanos, 0) + ${c.cost}::bigint
      from c where e.id = c.event_id`);
    return fleet;
  });
}

/** Gives a call's reservation back (a failed call, or one with nothing to charge). */
export async function releaseStatement(db: Database, c: CallRef): Promise<void> {
  await db.execute(sql`
    update leases set reserved_nanos = greatest(0, reserved_nanos - ${c.reserved}::bigint)
    where id = ${c.leaseId}::uuid`);
}
