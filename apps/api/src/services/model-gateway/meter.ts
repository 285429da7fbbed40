import { resultRows, sql } from "@fleet/db";
import { announceBudgetAlerts, recordCrossedAlerts } from "../billing/alerts.ts";
import { intArray } from "../billing/budgets.ts";
import { periodOf, spendThisPeriod } from "../billing/period.ts";
import { priceUsage } from "../billing/pricing.ts";
import type { ServiceContext } from "../shared/context.ts";
import type { Target } from "./resolve.ts";

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

/**
 * Charges one metered call, once, in one transaction: the cost (the catalogue's price of the vendor's
 * usage) is added to the run's usage and model spend (`leases.usage_nanos`, `model_nanos`) and debited
 * from its fleet at once (`charged_nanos`, `budget_used_nanos`, the period's spend), so billing and the
 * fleet's budget see it even if the runner never reports. The lease is not fenced here: the call was
 * admitted by its holder and the vendor has spent it. Budget alerts it crosses are recorded and announced.
 */
export async function chargeCall(
  ctx: ServiceContext,
  leaseId: string,
  target: Target,
  usage: CallUsage,
): Promise<number> {
  const priced = await priceUsage(ctx.db, { provider: target.provider, model: target.model, ...usage });
  const cost = priced.source === "catalogue" ? priced.costNanos : 0;
  if (cost === 0) return 0;
  const now = ctx.now();
  const { period } = periodOf(now);
  const alerts = await ctx.db.transaction(async (tx) => {
    const rows = resultRows<{
      id: string;
      tenant_id: string;
      workspace_id: string;
      period_budget_nanos: number | string | null;
      period_spend_nanos: number | string;
      budget_alert_percents: number[] | string;
    }>(
      await tx.execute(sql`
        with l as (
          update leases set usage_nanos = usage_nanos + ${cost}::bigint, model_nanos = model_nanos + ${cost}::bigint
          where id = ${leaseId}
          returning fleet_id
        )
        update fleets f set
          budget_used_nanos = f.budget_used_nanos + ${cost}::bigint,
          charged_nanos = f.charged_nanos + ${cost}::bigint,
          period_spend_nanos = ${spendThisPeriod(period)} + ${cost}::bigint,
          spend_period = ${period}
        from l where f.id = l.fleet_id
        returning f.id, f.tenant_id, f.workspace_id, f.period_budget_nanos, f.period_spend_nanos,
          f.budget_alert_percents`),
    );
    const fleet = rows[0];
    if (fleet === undefined) return [];
    return recordCrossedAlerts(
      tx,
      {
        id: fleet.id,
        tenantId: fleet.tenant_id,
        workspaceId: fleet.workspace_id,
        periodBudgetNanos: fleet.period_budget_nanos === null ? null : Number(fleet.period_budget_nanos),
        percents: intArray(fleet.budget_alert_percents),
      },
      period,
      Number(fleet.period_spend_nanos),
      now,
    );
  });
  announceBudgetAlerts(ctx, alerts);
  return cost;
}
