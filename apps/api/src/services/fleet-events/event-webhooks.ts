import type { Tx } from "@fleet/db";
import { recordWebhookEvent } from "../webhook-endpoints/outbox.ts";
import { readFleetEvent } from "./event-view.ts";

/**
 * Writes a finished event's outgoing event (`event.completed` when processed, `event.failed` on a fleet
 * error) to the outbox in the transaction of the report that finished it; its data is the event as its
 * read shows it (bodies and gates included, masked as stored).
 */
export async function eventFinishedWebhookEvent(
  tx: Tx,
  event: { tenantId: string; workspaceId: string; fleetId: string; eventId: string },
  outcome: "processed" | "fleet_error",
  at: number,
  id: string,
) {
  const ids = { workspace_id: event.workspaceId, fleet_id: event.fleetId, event_id: event.eventId };
  return recordWebhookEvent(
    tx,
    {
      tenantId: event.tenantId,
      workspaceId: event.workspaceId,
      fleetId: event.fleetId,
      type: outcome === "processed" ? "event.completed" : "event.failed",
      resource: `fleet_event:${event.eventId}`,
      readPath: `/v1/workspaces/${event.workspaceId}/fleets/${event.fleetId}/events/${event.eventId}`,
      at,
      id,
    },
    () => readFleetEvent({ db: tx }, event.tenantId, ids),
  );
}

/**
 * Writes a just-stored event's `event.received` to the outbox in the transaction that stored it (a
 * schedule's fire, a run of a schedule now, a run again, a connector's message: every insert of a fleet
 * event but the message send's, which writes its own in its statement, `received-webhooks.ts`). `id` is
 * the outgoing event's id, minted by the act, which the `event_received` frame carries too. Its data is
 * the event as its read shows it in that transaction.
 */
export async function eventReceivedWebhookEvent(
  tx: Tx,
  event: { tenantId: string; workspaceId: string; fleetId: string; eventId: string },
  at: number,
  id: string,
) {
  const ids = { workspace_id: event.workspaceId, fleet_id: event.fleetId, event_id: event.eventId };
  return recordWebhookEvent(
    tx,
    {
      tenantId: event.tenantId,
      workspaceId: event.workspaceId,
      fleetId: event.fleetId,
      type: "event.received",
      resource: `fleet_event:${event.eventId}`,
      readPath: `/v1/workspaces/${event.workspaceId}/fleets/${event.fleetId}/events/${event.eventId}`,
      at,
      id,
    },
    () => readFleetEvent({ db: tx }, event.tenantId, ids),
  );
}
