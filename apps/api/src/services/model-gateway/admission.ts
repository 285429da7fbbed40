import { Problem } from "@fleet/contracts";
import { type DeliveredSealed, jsonbValue } from "@fleet/db";
import { overBudget, runRefusal } from "../billing/budgets.ts";
import { periodOf } from "../billing/period.ts";
import type { Prices } from "../billing/pricing.ts";
import type { ServiceContext } from "../shared/context.ts";
import { lostLease } from "../shared/fence.ts";
import { type AdmissionRow, admissionStatement } from "./admission-sql.ts";
import type { Choice, HeldLease } from "./resolve.ts";
import { leaseSettled, settling } from "./settlements.ts";

/**
 * Output tokens a call is reserved for when it names no `max_completion_tokens`/`max_tokens`: the same
 * 4,096 the Anthropic translation sends as its `max_tokens` (docs/decisions/model-gateway.md, "Budgets").
 */
export const DEFAULT_RESERVED_OUTPUT_TOKENS = 4096;

/** A call let through: its lease, its target as chosen (the key still sealed), and what it reserved. */
export interface AdmittedCall {
  lease: HeldLease;
  /** Null when neither the tenant nor the platform has a provider (the caller answers UZ-MODEL-001). */
  choice: Choice | null;
  /** The resolved model's catalogue prices, read at admission; null when the catalogue does not price it. */
  prices: Prices | null;
  /** Nanos reserved on the lease for this call, to be given back by its charge or its release. */
  reservedNanos: number;
}

/** The worst case a request asks for: its prompt's size estimate and its output limit, in tokens. */
export function callEstimate(body: Record<string, unknown>): { input: number; output: number } {
  // About four characters a token (the usual rule of thumb, and the fake vendor's): the body as sent.
  const input = Math.ceil(JSON.stringify(body).length / 4);
  const asked = body.max_completion_tokens ?? body.max_tokens;
  const output =
    typeof asked === "number" && Number.isSafeInteger(asked) && asked > 0
      ? Math.min(asked, 100_000_000)
      : DEFAULT_RESERVED_OUTPUT_TOKENS;
  return { input, output };
}

/**
 * Admits one call in one statement (admission-sql.ts): the caller still the lease's current holder
 * with this token, the lease not expired, budget left once the calls in flight are counted, and then
 * the call's worst-case cost reserved on the lease, atomically with the check. A call whose worst case
 * does not fit what is left is admitted only alone (no other call in flight), reserving all that is left:
 * so the run's spend passes its budget by at most one call's worst case (docs: "Budgets").
 * It also reads the target: the tenant's provider or the platform's, the fleet definition's model, its
 * catalogue prices and the sealed key. A refusal is answered from what the statement read (`refused`):
 * 404 UZ-RUN-001, 409 UZ-RUN-005 or UZ-BUDGET-001, the codes and states every fenced write answers.
 */
export async function admitCall(
  ctx: ServiceContext,
  runnerId: string,
  ref: { lease_id: string; fencing_token: number },
  estimate: { input: number; output: number },
): Promise<AdmittedCall> {
  const admit = async () => {
    const now = ctx.now();
    const period = periodOf(now).period;
    const rows = await admissionStatement(ctx.db, {
      leaseId: ref.lease_id,
      runnerId,
      fencingToken: ref.fencing_token,
      now,
      period,
      ...estimate,
    });
    return { row: rows[0], period };
  };
  let { row, period } = await admit();
  // Refused for its budget while this instance still writes earlier calls' charges: their reservations
  // (worst cases) may be what leaves no room. Asked again once they are written (settlements.ts).
  if (row !== undefined && !row.admitted && row.refusal === null && settling(ctx.db, ref.lease_id)) {
    await leaseSettled(ctx.db, ref.lease_id);
    ({ row, period } = await admit());
  }
  if (row === undefined || row.refusal === "not_holder") {
    throw new Problem("UZ-RUN-001", { detail: `This runner holds no lease ${ref.lease_id}.` });
  }
  if (!row.admitted) throw refused(row, period);
  return admitted(row);
}

/** The refusal of a call the statement did not admit: the holder's, else the budget's. */
function refused(row: AdmissionRow, period: string): Problem {
  if (row.refusal === "expired") {
    return new Problem("UZ-RUN-005", {
      detail: "This lease has expired; its holder may no longer call the model.",
      current_state: "expired",
    });
  }
  if (row.refusal !== null) return lostLease(row.refusal);
  const nullable = (value: number | string | null) => (value === null ? null : Number(value));
  const spent = runRefusal(
    {
      runBudgetNanos: nullable(row.run_budget_nanos),
      periodBudgetNanos: nullable(row.period_budget_nanos),
      spendPeriod: period,
      periodSpendNanos: Number(row.period_spend_nanos),
    },
    Number(row.usage_nanos),
    period,
    Number(row.model_nanos),
  );
  // Not spent: the calls already in flight hold what is left.
  return (
    spent ??
    overBudget(
      "What is left of the run's budget, less its model calls in flight, does not cover this call's worst case; retry when one ends.",
    )
  );
}

function admitted(row: AdmissionRow): AdmittedCall {
  const lease: HeldLease = {
    id: row.id,
    fleetId: row.fleet_id,
    tenantId: row.tenant_id,
    workspaceId: row.workspace_id,
    eventId: row.event_id,
    fencingToken: Number(row.fencing_token),
    deliveredSealed: jsonbValue<DeliveredSealed[] | null>(row.delivered_sealed),
  };
  const prices =
    row.input_price === null || row.cached_price === null || row.output_price === null
      ? null
      : {
          input: Number(row.input_price),
          cachedInput: Number(row.cached_price),
          output: Number(row.output_price),
        };
  const choice: Choice | null =
    row.provider === null || row.model === null
      ? null
      : {
          provider: row.provider,
          model: row.model,
          baseUrl: row.base_url,
          sealed:
            row.wrapped_key === null || row.ciphertext === null
              ? null
              : { wrappedKey: row.wrapped_key, ciphertext: row.ciphertext },
          platformSecret:
            row.secret_workspace_id === null || row.secret_name === null
              ? null
              : { workspaceId: row.secret_workspace_id, name: row.secret_name },
        };
  return { lease, choice, prices, reservedNanos: Number(row.reserved) };
}
