import type { Database } from "@fleet/db";
import { announceBudgetAlerts, recordCrossedAlerts } from "../billing/alerts.ts";
import { intArray } from "../billing/budgets.ts";
import { periodOf } from "../billing/period.ts";
import { costAt } from "../billing/pricing.ts";
import type { ServiceContext } from "../shared/context.ts";
import { batchesOf, type GroupCommit } from "../shared/group-commit.ts";
import type { AdmittedCall } from "./admission.ts";
import {
  type BatchCharged,
  type ChargeRow,
  chargeBatchStatement,
  chargeLateStatements,
  releaseStatement,
} from "./meter-sql.ts";

/** The vendor's own count of one call, in the catalogue's terms: input is the uncached part. */
export interface CallUsage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
}

const count = (value: unknown): number =>
  typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : 0;

/**
 * Reads an OpenAI `usage` object: `prompt_tokens` counts the cached ones too
 * (`prompt_tokens_details.cached_tokens`), which the catalogue prices apart. Null when there is none.
 */
export function openaiUsage(usage: unknown): CallUsage | null {
  if (typeof usage !== "object" || usage === null) return null;
  const u = usage as {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown } | null;
  };
  const prompt = count(u.prompt_tokens);
  const cached = Math.min(prompt, count(u.prompt_tokens_details?.cached_tokens));
  return { input_tokens: prompt - cached, output_tokens: count(u.completion_tokens), cached_tokens: cached };
}

/** The call's cost: the vendor's usage at the catalogue prices read at admission; 0 when unpriced. */
export function callCost(call: Pick<AdmittedCall, "prices">, usage: CallUsage | null): number {
  return usage === null || call.prices === null ? 0 : costAt(call.prices, usage);
}

/** The charges queued on each database: one statement and one commit for those ending in one turn. */
const charges = new WeakMap<Database, GroupCommit<ChargeRow, BatchCharged>>();
/** Names a queued charge (its answer's key in the batch). */
let nextCharge = 0;

/**
 * Settles one admitted call, once, when its answer (or stream) ends however it ends: its reservation is
 * replaced by its cost (the vendor's usage at the catalogue's price), or simply given back when there is
 * no cost (a failed call, a stream broken before its usage, an unpriced model).
 *
 * The charge is one statement (meter-sql.ts), shared with the charges of the calls that end in the same
 * event-loop turn (GroupCommit, as messages are stored: under load one round trip and one commit charge
 * many calls): the cost is added to the run's usage and model spend
 * (`leases.usage_nanos`, `model_nanos`) and debited from its fleet at once (`charged_nanos`,
 * `budget_used_nanos`, the period's spend), so billing and the fleet's budget see it even if the runner
 * never reports. The lease is not fenced here: the call was admitted by its holder and the vendor has
 * spent it. A call that ends after its lease did (a stream outliving its report) is charged by the
 * late path, which also adds the cost to the event and the charge row the report wrote. Budget alerts
 * it crosses are recorded and announced, for a fleet with a period budget and alert percents only.
 */
export async function settleCall(
  ctx: ServiceContext,
  call: Pick<AdmittedCall, "lease" | "prices" | "reservedNanos">,
  usage: CallUsage | null,
): Promise<number> {
  const cost = callCost(call, usage);
  const ref = { leaseId: call.lease.id, fleetId: call.lease.fleetId, reserved: call.reservedNanos };
  if (cost === 0) {
    if (call.reservedNanos > 0) await releaseStatement(ctx.db, ref);
    return 0;
  }
  const now = ctx.now();
  const { period } = periodOf(now);
  const charge = { ...ref, cost, period };
  const batched = await batchesOf(charges, ctx, chargeBatchStatement).store({
    id: String(++nextCharge),
    ...charge,
  });
  // One row of each fleet in a batch records the alerts the batch crossed (the fleet as the batch left it).
  const fleet = batched.charged
    ? batched.alerts
      ? batched.fleet
      : null
    : await chargeLateStatements(ctx.db, charge);
  if (fleet !== null && fleet.id !== null && fleet.period_budget_nanos !== null) {
    // Below every alert percent (and the spent budget's), this runs no statement.
    const alerts = await recordCrossedAlerts(
      ctx.db,
      {
        id: fleet.id,
        tenantId: fleet.tenant_id,
        workspaceId: fleet.workspace_id,
        periodBudgetNanos: Number(fleet.period_budget_nanos),
        percents: intArray(fleet.budget_alert_percents),
      },
      period,
      Number(fleet.period_spend_nanos),
      now,
    );
    announceBudgetAlerts(ctx, alerts);
  }
  return cost;
}
