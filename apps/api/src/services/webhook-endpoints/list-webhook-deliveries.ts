import { and, count, eq, webhookDeliveries, webhookEvents } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { eventColumns, latestAttempts, toDeliveryItem } from "./delivery-rows.ts";
import { requireEndpoint } from "./endpoint-rows.ts";

export interface ListDeliveriesInput {
  workspace_id: string;
  endpoint_id: string;
  status?: "pending" | "succeeded" | "failed" | undefined;
  type?: string | undefined;
  starting_after?: string | undefined;
  limit: number;
}

/**
 * One page of the endpoint's delivery log, newest first, keyset-paged over (created_at, event_id) along
 * the endpoint's index; each delivery with its request and latest attempts. A cursor is bound to the
 * endpoint and the filters, so one issued for another filter is refused rather than misread.
 */
export async function listWebhookDeliveries(
  ctx: ServiceContext,
  tenantId: string,
  input: ListDeliveriesInput,
) {
  return ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    const endpoint = await requireEndpoint(tx, tenantId, input);
    const where = and(
      eq(webhookDeliveries.endpointId, endpoint.id),
      input.status === undefined ? undefined : eq(webhookDeliveries.status, input.status),
      input.type === undefined ? undefined : eq(webhookDeliveries.type, input.type),
    );
    const page = await keysetPage({
      bind: `webhook-deliveries:${endpoint.id}:${input.status ?? "*"}:${input.type ?? "*"}`,
      sort: webhookDeliveries.createdAt,
      id: webhookDeliveries.eventId,
      descending: true,
      valueType: "number",
      limit: input.limit,
      starting_after: input.starting_after,
      read: ({ after, order, rows }) =>
        tx
          .select({ delivery: webhookDeliveries, event: eventColumns })
          .from(webhookDeliveries)
          .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
          .where(and(where, after))
          .orderBy(...order)
          .limit(rows),
      keyOf: (row) => ({ value: row.delivery.createdAt, id: row.delivery.eventId }),
      count: () => tx.select({ n: count() }).from(webhookDeliveries).where(where),
    });
    const attempts = await latestAttempts(
      tx,
      endpoint.id,
      page.items.map((row) => row.delivery.eventId),
    );
    return {
      items: page.items.map((row) => toDeliveryItem(row, attempts.get(row.delivery.eventId) ?? [])),
      total: page.total,
      next_cursor: page.next_cursor,
    };
  });
}
