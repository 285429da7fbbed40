import { Problem } from "@fleet/contracts";
import { and, billingAccounts, billingCredits, eq, sql, tenants } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { balanceOf } from "./account.ts";

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
