import { and, charges, count, eq } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";

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
