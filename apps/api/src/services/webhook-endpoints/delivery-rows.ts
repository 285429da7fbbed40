import { Problem } from "@fleet/contracts";
import {
  WEBHOOK_DELIVERY_ATTEMPTS_SHOWN,
  type WebhookDeliveryItem,
} from "@fleet/contracts/webhook-endpoints/webhook-delivery";
import {
  and,
  type Database,
  eq,
  resultRows,
  sql,
  type Tx,
  webhookDeliveries,
  webhookEvents,
} from "@fleet/db";

type EventRow = Pick<typeof webhookEvents.$inferSelect, "id" | "type" | "data" | "createdAt">;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A delivery with the event it carries, as the log reads them. */
export interface DeliveryWithEvent {
  delivery: DeliveryRow;
  event: EventRow;
}

/** The columns of an event a delivery shows: what its payload is built from. */
export const eventColumns = {
  id: webhookEvents.id,
  type: webhookEvents.type,
  data: webhookEvents.data,
  createdAt: webhookEvents.createdAt,
};

/**
 * The body every attempt of an event sends: the Standard Webhooks payload, `timestamp` when the act
 * happened (RFC 3339, as the standard has it).
 */
export function webhookPayload(event: EventRow) {
  return {
    id: event.id,
    type: event.type,
    timestamp: new Date(event.createdAt).toISOString(),
    data: event.data,
  };
}

type AttemptItem = WebhookDeliveryItem["attempts"][number];

/**
 * The latest attempts of each of an endpoint's deliveries, newest first, at most
 * `WEBHOOK_DELIVERY_ATTEMPTS_SHOWN` each: one statement walking the attempts' key backwards per delivery.
 */
export async function latestAttempts(
  db: Database | Tx,
  endpointId: string,
  eventIds: readonly string[],
): Promise<Map<string, AttemptItem[]>> {
  const byEvent = new Map<string, AttemptItem[]>();
  if (eventIds.length === 0) return byEvent;
  const rows = resultRows<{
    event_id: string;
    attempt: number;
    at: number | string;
    status: number | null;
    latency_ms: number;
    error: string | null;
    response_head: string | null;
  }>(
    await db.execute(sql`
      select d.event_id, a.attempt, a.at, a.status, a.latency_ms, a.error, a.response_head
      from unnest(${`{${eventIds.join(",")}}`}::uuid[]) as d(event_id)
      cross join lateral (
        select * from webhook_attempts a
        where a.endpoint_id = ${endpointId}::uuid and a.event_id = d.event_id
        order by a.attempt desc limit ${WEBHOOK_DELIVERY_ATTEMPTS_SHOWN}
      ) a
      order by d.event_id, a.attempt desc`),
  );
  for (const row of rows) {
    const list = byEvent.get(row.event_id) ?? [];
    list.push({
      attempt: Number(row.attempt),
      at: Number(row.at),
      status_code: row.status === null ? null : Number(row.status),
      latency_ms: Number(row.latency_ms),
      error: row.error,
      response_head: row.response_head,
    });
    byEvent.set(row.event_id, list);
  }
  return byEvent;
}

export function toDeliveryItem(row: DeliveryWithEvent, attempts: AttemptItem[]): WebhookDeliveryItem {
  const { delivery, event } = row;
  return {
    id: delivery.eventId,
    endpoint_id: delivery.endpointId,
    type: delivery.type,
    resource: delivery.resource,
    status: delivery.status as WebhookDeliveryItem["status"],
    attempt_count: delivery.attempts,
    next_attempt_at: delivery.status === "pending" ? delivery.nextAttemptAt : null,
    created_at: delivery.createdAt,
    updated_at: delivery.updatedAt,
    request: webhookPayload(event),
    attempts,
  };
}

/** One delivery as the log shows it, read in `db` (the caller's transaction); undefined when none. */
export async function readDeliveryItem(
  db: Database | Tx,
  endpointId: string,
  eventId: string,
): Promise<WebhookDeliveryItem | undefined> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, event: eventColumns })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, eventId)));
  if (row === undefined) return undefined;
  const attempts = await latestAttempts(db, endpointId, [eventId]);
  return toDeliveryItem(row, attempts.get(eventId) ?? []);
}

/** An event id that names no delivery to the endpoint (another endpoint's or tenant's reads the same). */
export function deliveryNotFound(eventId: string): Problem {
  return new Problem("UZ-WEBHOOK-010", {
    detail: `The endpoint has no delivery of event ${eventId} in this workspace.`,
  });
}
