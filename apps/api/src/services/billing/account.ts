import { Problem } from "@fleet/contracts";
import {
  and,
  asc,
  billingAccounts,
  billingCredits,
  charges,
  count,
  eq,
  fleets,
  resultRows,
  sql,
  type Tx,
  tenants,
} from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { toFleetBudget } from "./budgets.ts";
import { periodOf } from "./period.ts";

const DAY_MS = 86_400_000;

/**
 * The tenant's balance: credits − charges of deleted fleets − every live fleet's charges, in one
 * statement (one snapshot: a fleet deleted meanwhile is counted once, on its row or in the account). The
 * sum is over the tenant's fleets, found through its workspaces' index: bounded by the fleets it has.
 */
async function balanceOf(db: ServiceContext["db"], tenantId: string): Promise<number> {
  const result = await db.execute(sql`
    select coalesce((select a.credited_nanos - a.retired_spend_nanos from billing_accounts a
                     where a.tenant_id = ${tenantId}::uuid), 0)
         - coalesce((select sum(f.charged_nanos) from workspaces w join fleets f on f.workspace_id = w.id
                     where w.tenant_id = ${tenantId}::uuid), 0) as balance`);
  const [row] = resultRows<{ balance: number | string | null }>(result);
  return Number(row?.balance ?? 0);
}

/**
 * A fleet is being deleted: its charges move from its row to the account's `retired_spend_nanos`, in the
 * deleting transaction (after the delete took the fleet's row lock, so a report of it either committed
 * before, and is in `charged`, or finds no fleet and charges nothing).
 */
export async function retireFleetSpend(
  tx: Tx,
  tenantId: string,
  charged: number,
  now: number,
): Promise<void> {
  if (charged === 0) return;
  await tx
    .insert(billingAccounts)
    .values({ tenantId, retiredSpendNanos: charged, updatedAt: now })
    .onConflictDoUpdate({
      target: billingAccounts.tenantId,
      set: {
        retiredSpendNanos: sql`${billingAccounts.retiredSpendNanos} + ${charged}::bigint`,
        updatedAt: now,
      },
    });
}

/** The tenant's balance, this period's spend, each fleet's budget and spend, and the spend per day per fleet. */
export async function getBilling(ctx: ServiceContext, tenantId: string) {
  const { period, start, end } = periodOf(ctx.now());
  const [balance, fleetRows, daily] = await Promise.all([
    balanceOf(ctx.db, tenantId),
    ctx.db
      .select()
      .from(fleets)
      .where(eq(fleets.tenantId, tenantId))
      .orderBy(asc(fleets.name), asc(fleets.id)),
    ctx.db.execute(sql`
      select fleet_id, floor(created_at / ${DAY_MS})::bigint as day, sum(cost_nanos)::bigint as spend
      from charges
      where tenant_id = ${tenantId}::uuid and created_at >= ${start}::bigint and created_at < ${end}::bigint
      group by 1, 2 order by 2, 1`),
  ]);
  const days = resultRows<{ fleet_id: string; day: number | string; spend: number | string }>(daily).map(
    (row) => ({
      day: new Date(Number(row.day) * DAY_MS).toISOString().slice(0, 10),
      fleet_id: row.fleet_id,
      spend_nanos: Number(row.spend),
    }),
  );
  return {
    balance_nanos: balance,
    period,
    period_start: start,
    period_end: end,
    // From the charges, so a deleted fleet's spend still counts.
    spend_this_period_nanos: days.reduce((sum, day) => sum + day.spend_nanos, 0),
    fleets: fleetRows.map((fleet) => toFleetBudget(fleet, period)),
    daily: days,
  };
}

type ChargeRow = typeof charges.$inferSelect;

function toCharge(row: ChargeRow) {
  return {
    charge_id: row.id,
    workspace_id: row.workspaceId,
    fleet_id: row.fleetId,
    event_id: row.eventId,
    lease_id: row.leaseId,
    provider: row.provider,
    model: row.model,
    tokens: row.tokens,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    cached_tokens: row.cachedTokens,
    input_nanos_per_mtok: row.inputNanosPerMtok,
    cached_input_nanos_per_mtok: row.cachedInputNanosPerMtok,
    output_nanos_per_mtok: row.outputNanosPerMtok,
    price_source: row.priceSource === "catalogue" ? ("catalogue" as const) : ("reported" as const),
    cost_nanos: row.costNanos,
    created_at: row.createdAt,
  };
}

/** The tenant's charges, newest first, keyset-paged over (created at, id); optionally one fleet's. */
export async function listCharges(
  ctx: ServiceContext,
  tenantId: string,
  input: { starting_after?: string | undefined; limit: number; fleet_id?: string | undefined },
) {
  const scope =
    input.fleet_id === undefined
      ? eq(charges.tenantId, tenantId)
      : and(eq(charges.tenantId, tenantId), eq(charges.fleetId, input.fleet_id));
  const page = await keysetPage({
    bind: `charges:${input.fleet_id ?? "*"}`,
    sort: charges.createdAt,
    id: charges.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(charges)
        .where(after === undefined ? scope : and(scope, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.id }),
    count: () => ctx.db.select({ n: count() }).from(charges).where(scope),
  });
  return { ...page, items: page.items.map(toCharge) };
}

/**
 * An operator's credit: adds to the tenant's balance and records the credit, in one transaction. The
 * reference makes a retry land once: the unique (tenant, reference) index settles a race between two.
 */
export async function creditTenant(
  ctx: ServiceContext,
  actor: Actor,
  input: { tenant_id: string; amount_nanos: number; reference: string; note?: string | undefined },
): Promise<{ credit: ReturnType<typeof toCredit>; created: boolean }> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const [tenant] = await tx.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, input.tenant_id));
    if (tenant === undefined) {
      throw new Problem("UZ-BILLING-001", { detail: `No tenant ${input.tenant_id} on this deployment.` });
    }
    const inserted = await tx
      .insert(billingCredits)
      .values({
        id: newId(now),
        tenantId: input.tenant_id,
        amountNanos: input.amount_nanos,
        reference: input.reference,
        note: input.note ?? null,
        createdBy: actor.principal,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) {
      const [earlier] = await tx
        .select()
        .from(billingCredits)
        .where(
          and(eq(billingCredits.tenantId, input.tenant_id), eq(billingCredits.reference, input.reference)),
        );
      if (earlier === undefined || earlier.amountNanos !== input.amount_nanos) {
        throw new Problem("UZ-BILLING-002", {
          detail: `The reference ${JSON.stringify(input.reference)} was credited with another amount.`,
          current_state: "credited",
        });
      }
      return { credit: toCredit(earlier, await balanceOf(tx as never, input.tenant_id)), created: false };
    }
    const credit = inserted[0]!;
    await tx
      .insert(billingAccounts)
      .values({ tenantId: input.tenant_id, creditedNanos: input.amount_nanos, updatedAt: now })
      .onConflictDoUpdate({
        target: billingAccounts.tenantId,
        set: {
          creditedNanos: sql`${billingAccounts.creditedNanos} + ${input.amount_nanos}::bigint`,
          updatedAt: now,
        },
      });
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: input.tenant_id,
      workspaceId: null,
      action: "billing.credit",
      target: `tenant:${input.tenant_id}`,
      details: { amount_nanos: input.amount_nanos, reference: input.reference },
    });
    return { credit: toCredit(credit, await balanceOf(tx as never, input.tenant_id)), created: true };
  });
}

function toCredit(row: typeof billingCredits.$inferSelect, balance: number) {
  return {
    credit_id: row.id,
    tenant_id: row.tenantId,
    amount_nanos: row.amountNanos,
    reference: row.reference,
    balance_nanos: balance,
    created_at: row.createdAt,
  };
}
