import { eq, fleetEvents, fleets } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { eventReceivedWebhookEvent } from "../fleet-events/event-webhooks.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";
import { eventReceived } from "../shared/frames.ts";
import { fleetOwned } from "./fleet-owned.ts";

/** Stores a cron event for the schedule now, as a fire would. */
export async function runFleetSchedule(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; schedule_id: string; fencing_token: number },
) {
  const now = ctx.now();
  const event = await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const row = await fleetOwned(tx, lease.fleetId, input.schedule_id, false);
    const id = newId(now);
    const webhookId = newId(now);
    await tx.insert(fleetEvents).values({
      id,
      workspaceId: row.workspaceId,
      fleetId: row.fleetId,
      actor: `cron:${row.id}`,
      eventType: "cron",
      requestJson: JSON.stringify({ message: row.override?.message ?? row.message, schedule_id: row.id }),
      status: "received",
      createdAt: now,
      updatedAt: now,
    });
    const [fleet] = await tx
      .select({ tenantId: fleets.tenantId })
      .from(fleets)
      .where(eq(fleets.id, row.fleetId));
    await eventReceivedWebhookEvent(
      tx,
      { tenantId: fleet!.tenantId, workspaceId: row.workspaceId, fleetId: row.fleetId, eventId: id },
      now,
      webhookId,
    );
    return {
      workspaceId: row.workspaceId,
      fleetId: row.fleetId,
      eventId: id,
      eventType: "cron" as const,
      actor: `cron:${row.id}`,
      message: row.override?.message ?? row.message,
      webhookId,
    };
  });
  ctx.tracing?.eventReceived(event.eventId, "cron");
  ctx.work.announce();
  eventReceived(ctx, event);
  // Its `event.received` may be in the outbox: deliver now rather than at the next pass.
  ctx.webhookOutbox?.kick();
  return { status: "accepted" as const, event_id: event.eventId };
}
