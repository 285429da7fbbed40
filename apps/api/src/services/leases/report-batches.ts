import { type Database, resultRows, type SQL, sql } from "@fleet/db";
import { spendThisPeriod } from "../billing/period.ts";
import { eventFinishedWebhookEvent } from "../fleet-events/event-webhooks.ts";
import { anySubscriber } from "../webhook-endpoints/subscribers.ts";

/** One report, priced and masked, as its batch's statement takes it. */
export interface ReportRow {
  /** The row's own id, unique in the queue: the id of the charge it writes. */
  id: string;
  leaseId: string;
  eventId: string;
  runnerId: string;
  fencingToken: number;
  /** The lease's end: `succeeded` or `failed`. */
  leaseStatus: string;
  /** The event's end: `processed` or `fleet_error`. */
  outcome: "processed" | "fleet_error";
  responseText: string | null;
  failureLabel: string | null;
  failureDetail: string | null;
  tokens: number | null;
  wallMs: number | null;
  /** What the event shows as charged (before the lease's gateway calls are added). */
  eventCost: number | null;
  checkpointId: string | null;
  provider: string | null;
  model: string | null;
  posture: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  /** What the fleet is debited for the report itself. */
  cost: number;
  priceInput: number | null;
  priceCachedInput: number | null;
  priceOutput: number | null;
  priceSource: string;
  historyId: string;
  /** The id of the event's `event.completed`/`event.failed` outgoing event. */
  webhookId: string;
  at: number;
  period: string;
}

/** What the statement answers for a report that finished its run (none: it changed nothing). */
export interface Finished {
  row_id: string;
  id: string;
  fleet_id: string;
  workspace_id: string;
  tenant_id: string;
  actor: string;
  more: boolean;
  /** An enabled endpoint of the workspace takes the event's outgoing event. */
  hooked: boolean;
  period_budget_nanos: number | string | null;
  period_spend_nanos: number | string;
  budget_alert_percents: number[] | string;
}

/**
 * The first of a report's two batches (`reportLease` queues it): one statement in autocommit (one round
 * trip, one commit) ending every lease whose report is its current holder's and whose finished event no
 * enabled endpoint takes. A report it does not end (an endpoint takes its event, or it is refused) is
 * answered null and goes to `finishWithOutbox`. Each batch is atomic on its own, so a failure of the second
 * never touches a report the first committed.
 */
export async function finishUnhooked(db: Database, rows: ReportRow[]): Promise<Map<string, Finished | null>> {
  const ended = resultRows<Finished>(await db.execute(reportStatement(rows, "unhooked")));
  const byRow = new Map(ended.map((finished) => [finished.row_id, finished]));
  return new Map(rows.map((row) => [row.id, byRow.get(row.id) ?? null]));
}

/**
 * The second batch: the reports in one transaction, the statement and then the outgoing events of the
 * finished events an endpoint takes, so a report is never committed without its outgoing event. A refused
 * report is refused here too, and answered null.
 */
export async function finishWithOutbox(
  db: Database,
  rows: ReportRow[],
): Promise<Map<string, Finished | null>> {
  const finished = await db.transaction(async (tx) => {
    const done = resultRows<Finished>(await tx.execute(reportStatement(rows, "any")));
    const byRow = new Map(rows.map((row) => [row.id, row]));
    for (const ended of done) {
      const row = byRow.get(ended.row_id)!;
      if (!ended.hooked) continue;
      const ref = {
        tenantId: ended.tenant_id,
        workspaceId: ended.workspace_id,
        fleetId: ended.fleet_id,
        eventId: row.eventId,
      };
      await eventFinishedWebhookEvent(tx, ref, row.outcome, row.at, row.webhookId);
    }
    return done;
  });
  const byRow = new Map(finished.map((ended) => [ended.row_id, ended]));
  return new Map(rows.map((row) => [row.id, byRow.get(row.id) ?? null]));
}

/**
 * An enabled endpoint of the fleet's workspace takes the finished event's outgoing event (`event.completed`
 * or `event.failed`, of every fleet or of this one); `outcome`, `workspace` and `fleet` name the columns.
 */
function endpointTakes(outcome: SQL, workspace: SQL, fleet: SQL): SQL {
  return anySubscriber({
    workspace,
    type: sql`(case when ${outcome} = 'processed' then 'event.completed' else 'event.failed' end)`,
    fleet,
  });
}

/**
 * One statement ending every lease whose report is its current holder's (the rows as arrays; each fleet
 * row locked as the single report locked it); with `unhooked`, only those whose event no endpoint takes.
 * Two reports of one lease never share a batch (the queues' conflict key), so each lease is checked against
 * the state the other left. Every write hangs off `ended` (the lease's own conditional update), as in the
 * one-report statement this replaced: a stale token, another runner's lease or one already ended finishes
 * nothing, and its row is not answered.
 */
function reportStatement(rows: ReportRow[], which: "unhooked" | "any"): SQL {
  const column = <K extends keyof ReportRow>(key: K) => sql.param(rows.map((row) => row[key]));
  const unhooked =
    which === "unhooked"
      ? sql`and not ${endpointTakes(sql`i.outcome`, sql`f.workspace_id`, sql`f.id`)}`
      : sql``;
  return sql`
      with i as (
        select * from unnest(
          ${column("id")}::uuid[], ${column("leaseId")}::uuid[], ${column("eventId")}::uuid[],
          ${column("runnerId")}::uuid[], ${column("fencingToken")}::bigint[], ${column("leaseStatus")}::text[],
          ${column("outcome")}::text[], ${column("responseText")}::text[], ${column("failureLabel")}::text[],
          ${column("failureDetail")}::text[], ${column("tokens")}::bigint[], ${column("wallMs")}::bigint[],
          ${column("eventCost")}::bigint[], ${column("checkpointId")}::text[], ${column("provider")}::text[],
          ${column("model")}::text[], ${column("posture")}::text[], ${column("inputTokens")}::bigint[],
          ${column("outputTokens")}::bigint[], ${column("cachedTokens")}::bigint[], ${column("cost")}::bigint[],
          ${column("priceInput")}::bigint[], ${column("priceCachedInput")}::bigint[], ${column("priceOutput")}::bigint[],
          ${column("priceSource")}::text[], ${column("historyId")}::uuid[], ${column("at")}::bigint[],
          ${column("period")}::text[]
        ) as i(row_id, lease_id, event_id, runner_id, token, lease_status, outcome, response_text, failure_label,
               failure_detail, tokens, wall_ms, event_cost, checkpoint_id, provider, model, posture, input_tokens,
               output_tokens, cached_tokens, cost, price_input, price_cached_input, price_output, price_source,
               history_id, at, period)
      ),
      cur as (
        select i.*, f.workspace_id, f.tenant_id
        from i
        cross join lateral (select * from leases where id = i.lease_id offset 0) l
        join fleets f on f.id = l.fleet_id
        where l.runner_id = i.runner_id and l.status = 'running'
          and l.event_id = i.event_id
          and l.fencing_token = i.token and f.fence_seq = i.token
          ${unhooked}
        order by f.id
        for no key update of f
      ),
      ended as (
        update leases l set
          status = cur.lease_status, ended_at = cur.at, delivered_sealed = null,
          failure_label = cur.failure_label, failure_detail = cur.failure_detail,
          provider = cur.provider, model = cur.model, posture = cur.posture,
          input_tokens = cur.input_tokens, output_tokens = cur.output_tokens, cached_tokens = cur.cached_tokens
        from cur where l.id = cur.lease_id and l.status = 'running'
        returning cur.*, l.id, l.fleet_id, l.model_nanos
      ),
      event as (
        update fleet_events e set
          status = ended.outcome, response_text = ended.response_text,
          failure_label = ended.failure_label, failure_detail = ended.failure_detail,
          tokens = ended.tokens, wall_ms = ended.wall_ms,
          cost_nanos = case when ended.model_nanos > 0
            then coalesce(ended.event_cost, 0) + ended.model_nanos else ended.event_cost end,
          checkpoint_id = ended.checkpoint_id,
          updated_at = ended.at
        from ended where e.id = ended.event_id
        returning e.id, e.actor
      ),
      counted as (
        update fleets f set
          leased_until = null,
          events_processed = f.events_processed + 1,
          budget_used_nanos = f.budget_used_nanos + ended.cost,
          charged_nanos = f.charged_nanos + ended.cost,
          period_spend_nanos = ${spendThisPeriod(sql`ended.period`)} + ended.cost,
          spend_period = ended.period
        from ended where f.id = ended.fleet_id
        returning f.id, f.period_budget_nanos, f.period_spend_nanos, f.budget_alert_percents
      ),
      charged as (
        insert into charges (id, tenant_id, workspace_id, fleet_id, event_id, lease_id, provider, model, tokens,
          input_tokens, output_tokens, cached_tokens, input_nanos_per_mtok, cached_input_nanos_per_mtok,
          output_nanos_per_mtok, price_source, cost_nanos, created_at)
        select ended.row_id, ended.tenant_id, ended.workspace_id, ended.fleet_id, ended.event_id, ended.id,
          ended.provider, ended.model, ended.tokens, ended.input_tokens, ended.output_tokens, ended.cached_tokens,
          ended.price_input, ended.price_cached_input, ended.price_output, ended.price_source,
          ended.cost + ended.model_nanos, ended.at
        from ended
        on conflict (event_id) do nothing
      ),
      history as (
        insert into runner_events (id, runner_id, event_type, detail, created_at)
        select ended.history_id, ended.runner_id, 'lease_released',
               jsonb_build_object('lease_id', ended.id, 'outcome', ended.lease_status), ended.at
        from ended
      )
      select ended.row_id, ended.id, ended.fleet_id, ended.workspace_id, ended.tenant_id, event.actor,
        exists (
          select 1 from fleet_events w
          where w.fleet_id = ended.fleet_id and w.status = 'received' and w.id <> ended.event_id
        ) as more,
        ${which === "unhooked" ? sql`false` : endpointTakes(sql`ended.outcome`, sql`ended.workspace_id`, sql`ended.fleet_id`)} as hooked,
        counted.period_budget_nanos, counted.period_spend_nanos, counted.budget_alert_percents
      from ended
      join counted on counted.id = ended.fleet_id
      left join event on event.id = ended.event_id`;
}
