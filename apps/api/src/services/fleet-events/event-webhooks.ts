import type { Tx } from "@fleet/db";
import { recordWebhookEvent } from "../webhook-endpoints/outbox.ts";
import { readFleetEvent } from "./event-view.ts";

type FleetEventRef = { tenantId: string; workspaceId: string; fleetId: string; eventId: string };

/**
 * Writes a fleet event's outgoing event to the outbox in the caller's transaction, with `id` minted by the
 * act (the frame it publishes carries it too); its data is the event as its read shows it in that
 * transaction (bodies and gates included, masked as stored).
 */
function fleetEventWebhookEvent(
  tx: Tx,
  event: FleetEventRef,
  type: "event.received" | "event.completed" | "event.failed",
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
      type,
      resource: `fleet_event:${event.eventId}`,
      readPath: `/v1/workspaces/${event.workspaceId}/fleets/${event.fleetId}/events/${event.eventId}`,
      at,
      id,
    },
    () => readFleetEvent({ db: tx }, event.tenantId, ids),
  );
}

/**
 * A finished event's `event.completed` (processed) or `event.failed` (a fleet error), in the transaction of
 * the report that finished it.
 */
export function eventFinishedWebhookEvent(
  tx: Tx,
  event: FleetEventRef,
  outcome: "processed" | "fleet_error",
  at: number,
  id: string,
) {
  const type = outcome === "processed" ? "event.completed" : "event.failed";
  return fleetEventWebhookEvent(tx, event, type, at, id);
}

/**
 * A just-stored event's `event.received`, in the transaction that stored it (a schedule's fire, a run of a
 * schedule now, a run again, a connector's message: every insert of a fleet event but the message send's,
 * which writes its own in its statement, `received-webhooks.ts`).
 */
export function eventReceivedWebhookEvent(tx: Tx, event: FleetEventRef, at: number, id: string) {
  return fleetEventWebhookEvent(tx, event, "event.received", at, id);
}
