import { Problem } from "@fleet/contracts";
import { resultRows, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { announceBudgetAlerts, recordCrossedAlerts } from "../billing/alerts.ts";
import { intArray } from "../billing/budgets.ts";
import { periodOf, spendThisPeriod } from "../billing/period.ts";
import { priceUsage } from "../billing/pricing.ts";
import { chatAnswerReady, fromChat } from "../connectors/answers.ts";
import { eventFinishedWebhookEvent } from "../fleet-events/event-webhooks.ts";
import { leaseSettled } from "../model-gateway/settlements.ts";
import { dropMasker, leaseMaskerById } from "../secrets/lease-masker.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";
import { eventComplete } from "../shared/frames.ts";

/** Every free text of a report: what the run writes and people read (event, lease, charge, span, chat). */
const REPORT_TEXTS = [
  "response_text",
  "failure_label",
  "failure_detail",
  "checkpoint_id",
  "provider",
  "model",
  "posture",
] as const;

/**
 * The report with the run's masker applied to every free text it carries: the values of the fleet's
 * declared secrets, and those delivered to the run, become `[secret:NAME]` before anything is stored or
 * told. A report that carries no text reads nothing for masking.
 */
async function maskedReport(ctx: ServiceContext, reported: ReportInput): Promise<ReportInput> {
  if (REPORT_TEXTS.every((field) => reported[field] === undefined)) return reported;
  const mask = await leaseMaskerById(ctx, reported.lease_id);
  const masked = { ...reported };
  for (const field of REPORT_TEXTS) {
    const text = reported[field];
    if (text !== undefined) masked[field] = mask(text);
  }
  return masked;
}

/** What the report's statement answers when it finished the run (no row: it changed nothing). */
interface Finished {
  id: string;
  fleet_id: string;
  workspace_id: string;
  tenant_id: string;
  actor: string;
  more: boolean;
  period_budget_nanos: number | string | null;
  period_spend_nanos: number | string;
  budget_alert_percents: number[] | string;
}

export interface ReportInput {
  lease_id: string;
  event_id: string;
  fencing_token: number;
  outcome: "processed" | "fleet_error";
  response_text?: string;
  failure_label?: string;
  failure_detail?: string;
  tokens?: number;
  wall_ms?: number;
  cost_nanos?: number;
  checkpoint_id?: string;
  provider?: string;
  model?: string;
  posture?: string;
  input_tokens?: number;
  output_tokens?: number;
  cached_tokens?: number;
}

/**
 * Ends the lease and writes the run's answer onto its event, in one statement: it changes anything only
 * if the caller holds the lease and its token is still the fleet's (the fleet row is locked meanwhile).
 * A refusal is told apart afterwards, off the hot path. When the fleet has further events waiting, the
 * work signal wakes waiting runners: the fleet was skipped while leased, and is free now.
 *
 * Every write hangs off the lease's own conditional update (`ended`), not off `cur`: two racing reports
 * both pass `cur` once the first commits and frees the fleet row (PostgreSQL rechecks only the locked
 * row, and reads the lease as it was), but only the first finds the lease still `running`, so the second
 * charges, counts and answers nothing.
 *
 * The charge's debit is the fleet row's `charged_nanos` (the balance is credits minus the fleets' sums,
 * billing/account.ts): the report writes no row shared by the tenant's other fleets, so reports of one
 * tenant's fleets do not queue on one account row (issue 16 §4; before, every report with a cost upserted
 * `billing_accounts` and held its lock until commit).
 *
 * The run's model calls through the gateway were charged to the fleet as each ended (model-gateway/meter.ts):
 * the fleet's counters take only the report's own cost, while the event's cost and the charge row show
 * the whole run, the report's cost plus the lease's `model_nanos`.
 *
 * The lease is read by its key alone, in a subquery fenced with `offset 0`: with `status = 'running'`
 * beside the key, a generic plan cached while `leases` had no statistics (a new database) read the
 * one-running-lease-per-fleet index instead, whose entries for ended leases stay until vacuum (9,000 of
 * them cost 9,025 buffer reads a report, against 3).
 */
export async function reportLease(ctx: ServiceContext, runnerId: string, reported: ReportInput) {
  // The run's gateway calls answered here are charged first, so its event's cost counts them all.
  await leaseSettled(ctx.db, reported.lease_id);
  const input = await maskedReport(ctx, reported);
  const now = ctx.now();
  const succeeded = input.outcome === "processed";
  const failureLabel = succeeded ? null : (input.failure_label ?? "fleet_error");
  const failureDetail = succeeded ? null : (input.failure_detail ?? null);
  // Priced by what the runner named: the catalogue lookup shows no one the text.
  const priced = await priceUsage(ctx.db, reported);
  const cost = priced.costNanos;
  // The event shows what was charged; with neither a priced model nor a reported cost it stays absent.
  const eventCost = priced.source === "catalogue" ? cost : (input.cost_nanos ?? null);
  const { period } = periodOf(now);
  // One transaction: the statement that finishes the run, and the event's webhook event in the outbox,
  // whose id the `event_complete` frame carries (minted whether or not an endpoint subscribes).
  const webhookId = newId(now);
  const rows = await ctx.db.transaction(async (tx) => {
    const finished = resultRows<Finished>(
      await tx.execute(sql`
      with cur as (
        select l.id, l.fleet_id, l.event_id, f.workspace_id, f.tenant_id
        from (select * from leases where id = ${input.lease_id} offset 0) l
        join fleets f on f.id = l.fleet_id
        where l.runner_id = ${runnerId} and l.status = 'running'
          and l.event_id = ${input.event_id}
          and l.fencing_token = ${input.fencing_token} and f.fence_seq = ${input.fencing_token}
        for no key update of f
      ),
      ended as (
        update leases l set
          status = ${succeeded ? "succeeded" : "failed"}, ended_at = ${now}::bigint, delivered_sealed = null,
          failure_label = ${failureLabel}, failure_detail = ${failureDetail},
          provider = ${input.provider ?? null}, model = ${input.model ?? null}, posture = ${input.posture ?? null},
          input_tokens = ${input.input_tokens ?? null}::bigint, output_tokens = ${input.output_tokens ?? null}::bigint,
          cached_tokens = ${input.cached_tokens ?? null}::bigint
        from cur where l.id = cur.id and l.status = 'running'
        returning l.id, l.fleet_id, l.event_id, cur.workspace_id, cur.tenant_id, l.model_nanos
      ),
      event as (
        update fleet_events e set
          status = ${input.outcome}, response_text = ${input.response_text ?? null},
          failure_label = ${failureLabel}, failure_detail = ${failureDetail},
          tokens = ${input.tokens ?? null}::bigint, wall_ms = ${input.wall_ms ?? null}::bigint,
          cost_nanos = case when ended.model_nanos > 0
            then coalesce(${eventCost}::bigint, 0) + ended.model_nanos else ${eventCost}::bigint end,
          checkpoint_id = ${input.checkpoint_id ?? null},
          updated_at = ${now}::bigint
        from ended where e.id = ended.event_id
        returning e.id, e.actor
      ),
      counted as (
        update fleets f set
          leased_until = null,
          events_processed = f.events_processed + 1,
          budget_used_nanos = f.budget_used_nanos + ${cost}::bigint,
          charged_nanos = f.charged_nanos + ${cost}::bigint,
          period_spend_nanos = ${spendThisPeriod(period)} + ${cost}::bigint,
          spend_period = ${period}
        from ended where f.id = ended.fleet_id
        returning f.id, f.period_budget_nanos, f.period_spend_nanos, f.budget_alert_percents
      ),
      charged as (
        insert into charges (id, tenant_id, workspace_id, fleet_id, event_id, lease_id, provider, model, tokens,
          input_tokens, output_tokens, cached_tokens, input_nanos_per_mtok, cached_input_nanos_per_mtok,
          output_nanos_per_mtok, price_source, cost_nanos, created_at)
        select ${newId(now)}::uuid, ended.tenant_id, ended.workspace_id, ended.fleet_id, ended.event_id, ended.id,
          ${input.provider ?? null}, ${input.model ?? null}, ${input.tokens ?? null}::bigint,
          ${input.input_tokens ?? null}::bigint, ${input.output_tokens ?? null}::bigint, ${input.cached_tokens ?? null}::bigint,
          ${priced.prices?.input ?? null}::bigint, ${priced.prices?.cachedInput ?? null}::bigint,
          ${priced.prices?.output ?? null}::bigint, ${priced.source}, ${cost}::bigint + ended.model_nanos,
          ${now}::bigint
        from ended
        on conflict (event_id) do nothing
      ),
      history as (
        insert into runner_events (id, runner_id, event_type, detail, created_at)
        select ${newId(now)}::uuid, ${runnerId}::uuid, 'lease_released',
               jsonb_build_object('lease_id', ended.id, 'outcome', ${succeeded ? "succeeded" : "failed"}::text), ${now}::bigint
        from ended
      )
      select ended.id, ended.fleet_id, ended.workspace_id, ended.tenant_id, (select actor from event) as actor, exists (
        select 1 from fleet_events w
        where w.fleet_id = ended.fleet_id and w.status = 'received' and w.id <> ended.event_id
      ) as more, counted.period_budget_nanos, counted.period_spend_nanos, counted.budget_alert_percents
      from ended, counted`),
    );
    const ended = finished[0];
    if (ended !== undefined) {
      await eventFinishedWebhookEvent(
        tx,
        {
          tenantId: ended.tenant_id,
          workspaceId: ended.workspace_id,
          fleetId: ended.fleet_id,
          eventId: input.event_id,
        },
        input.outcome,
        now,
        webhookId,
      );
    }
    return finished;
  });

  if (rows.length === 0) {
    // Why nothing changed: not this runner's lease (404), superseded or ended (409), another event (400).
    const lease = await fencedWrite(ctx, runnerId, input, async (_tx, held) => held);
    if (lease.eventId !== input.event_id) {
      throw new Problem("UZ-REQ-001", { detail: "event_id is not the event this lease runs." });
    }
    throw new Problem("UZ-RUN-005", {
      detail: "The lease changed while the report was written; it was not applied.",
    });
  }
  // The fleet is free again: its next event can be leased now, not at a waiting runner's next re-poll.
  const ended = rows[0]!;
  dropMasker(ctx.vault, ended.id);
  if (ended.more) ctx.work.announce();
  if (ended.period_budget_nanos !== null) {
    const alerts = await recordCrossedAlerts(
      ctx.db,
      {
        id: ended.fleet_id,
        tenantId: ended.tenant_id,
        workspaceId: ended.workspace_id,
        periodBudgetNanos: Number(ended.period_budget_nanos),
        percents: intArray(ended.budget_alert_percents),
      },
      period,
      Number(ended.period_spend_nanos),
      now,
    );
    announceBudgetAlerts(ctx, alerts);
  }
  ctx.metrics?.lease(succeeded ? "succeeded" : "failed");
  ctx.tracing?.reported(
    {
      leaseId: input.lease_id,
      eventId: input.event_id,
      outcome: succeeded ? "succeeded" : "failed",
      failureLabel,
      tokens: input.tokens,
      inputTokens: input.input_tokens,
      outputTokens: input.output_tokens,
      cachedTokens: input.cached_tokens,
      costNanos: eventCost ?? undefined,
      wallMs: input.wall_ms,
      provider: input.provider,
      model: input.model,
    },
    now,
  );
  eventComplete(
    ctx,
    { workspaceId: ended.workspace_id, fleetId: ended.fleet_id, eventId: input.event_id, leaseId: ended.id },
    { ...input, cost_nanos: eventCost ?? undefined, status: input.outcome, failure_label: failureLabel },
    webhookId,
  );
  // A question from a chat thread: its answer goes back there (delivered by the outbox, never failing this).
  if (fromChat(ended.actor))
    await chatAnswerReady(
      ctx,
      { workspaceId: ended.workspace_id, fleetId: ended.fleet_id, eventId: input.event_id },
      { ...input, failure_label: failureLabel },
    ).catch(() => {});
  return {
    lease_id: input.lease_id,
    event_id: input.event_id,
    outcome: succeeded ? ("succeeded" as const) : ("failed" as const),
  };
}
