import { Problem } from "@fleet/contracts";
import { AUDIT_EXPORT_MAX_RANGE_MS } from "@fleet/contracts/audit/export-tenant-audit";
import { and, asc, auditEvents, eq, gt, gte, lte, or } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { toAuditEvent } from "./audit-page.ts";

/** Rows read per query: the stream holds one batch at a time, whatever the window holds. */
export const EXPORT_BATCH = 500;

/**
 * The tenant's audit rows with `from <= at <= to`, oldest first over (at, id), read batch by batch with
 * a keyset (each batch its own short query: no transaction or cursor is held while the client reads).
 * The range is checked before anything is read.
 */
export function exportTenantAudit(
  ctx: ServiceContext,
  tenantId: string,
  input: { from: number; to: number },
): AsyncIterable<ReturnType<typeof toAuditEvent>> {
  if (input.from > input.to) throw new Problem("UZ-REQ-001", { detail: "from must not be after to." });
  if (input.to - input.from > AUDIT_EXPORT_MAX_RANGE_MS) {
    throw new Problem("UZ-REQ-001", {
      detail: "from and to must be at most 31 days apart; export a longer history window by window.",
    });
  }
  return rows(ctx, tenantId, input);
}

async function* rows(ctx: ServiceContext, tenantId: string, input: { from: number; to: number }) {
  let after: { at: number; id: string } | null = null;
  for (;;) {
    const batch: (typeof auditEvents.$inferSelect)[] = await ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.tenantId, tenantId),
          gte(auditEvents.at, input.from),
          lte(auditEvents.at, input.to),
          after === null
            ? undefined
            : or(
                gt(auditEvents.at, after.at),
                and(eq(auditEvents.at, after.at), gt(auditEvents.id, after.id)),
              ),
        ),
      )
      .orderBy(asc(auditEvents.at), asc(auditEvents.id))
      .limit(EXPORT_BATCH);
    for (const row of batch) yield toAuditEvent(row);
    if (batch.length < EXPORT_BATCH) return;
    const last = batch.at(-1)!;
    after = { at: last.at, id: last.id };
  }
}
