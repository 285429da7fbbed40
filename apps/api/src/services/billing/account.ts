import { billingAccounts, resultRows, sql, type Tx } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

/**
 * The tenant's balance: credits − charges of deleted fleets − every live fleet's charges, in one
 * statement (one snapshot: a fleet deleted meanwhile is counted once, on its row or in the account). The
 * sum is over the tenant's fleets, found through its workspaces' index: bounded by the fleets it has.
 */
export async function balanceOf(db: ServiceContext["db"], tenantId: string): Promise<number> {
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
