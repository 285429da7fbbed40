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
    },
    () => readFleetEvent({ db: tx }, event.tenantId, ids),
  );
}
