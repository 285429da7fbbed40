import { Problem } from "@fleet/contracts";
import type { Database } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { announceBudgetAlerts, recordCrossedAlerts } from "../billing/alerts.ts";
import { intArray } from "../billing/budgets.ts";
import { periodOf } from "../billing/period.ts";
import { priceUsage } from "../billing/pricing.ts";
import { chatAnswerReady, fromChat } from "../connectors/answers.ts";
import { leaseSettled } from "../model-gateway/settlements.ts";
import { dropMasker, leaseMaskerById } from "../secrets/lease-masker.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";
import { eventComplete } from "../shared/frames.ts";
import { batchesOf, type GroupCommit } from "../shared/group-commit.ts";
import { type Finished, finishUnhooked, finishWithOutbox, type ReportRow } from "./report-batches.ts";

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
 * Ends the lease and writes the run's answer onto its event, in one statement shared with the reports
 * queued by the end of the same event-loop turn, and one commit (`finishUnhooked`, issue 34); a report
 * whose finished event an endpoint takes goes in a second batch, one transaction that also writes its
 * outgoing event (`finishWithOutbox`). Either changes anything only if the caller holds the lease and its
 * token is still the fleet's (the fleet row is locked meanwhile).
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
  // Shared with the reports queued by the end of this turn (`GroupCommit`): one statement, one commit. A
  // report it does not end (an endpoint takes its event, or it is refused) goes in the second batch.
  const webhookId = newId(now);
  const row: ReportRow = {
    id: newId(now),
    leaseId: input.lease_id,
    eventId: input.event_id,
    runnerId,
    fencingToken: input.fencing_token,
    leaseStatus: succeeded ? "succeeded" : "failed",
    outcome: input.outcome,
    responseText: input.response_text ?? null,
    failureLabel,
    failureDetail,
    tokens: input.tokens ?? null,
    wallMs: input.wall_ms ?? null,
    eventCost,
    checkpointId: input.checkpoint_id ?? null,
    provider: input.provider ?? null,
    model: input.model ?? null,
    posture: input.posture ?? null,
    inputTokens: input.input_tokens ?? null,
    outputTokens: input.output_tokens ?? null,
    cachedTokens: input.cached_tokens ?? null,
    cost,
    priceInput: priced.prices?.input ?? null,
    priceCachedInput: priced.prices?.cachedInput ?? null,
    priceOutput: priced.prices?.output ?? null,
    priceSource: priced.source,
    historyId: newId(now),
    webhookId,
    at: now,
    period,
  };
  const ended =
    (await batchesOf(unhooked, ctx, finishUnhooked, (queued) => queued.leaseId).store(row)) ??
    (await batchesOf(hooked, ctx, finishWithOutbox, (queued) => queued.leaseId).store(row));

  if (ended === null) {
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
    { id: webhookId, written: ended.hooked },
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

const unhooked = new WeakMap<Database, GroupCommit<ReportRow, Finished | null>>();
const hooked = new WeakMap<Database, GroupCommit<ReportRow, Finished | null>>();
