import { fleetEvents } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
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
    return {
      workspaceId: row.workspaceId,
      fleetId: row.fleetId,
      eventId: id,
      eventType: "cron" as const,
      actor: `cron:${row.id}`,
      message: row.override?.message ?? row.message,
    };
  });
  ctx.tracing?.eventReceived(event.eventId, "cron");
  ctx.work.announce();
  eventReceived(ctx, event);
  return { status: "accepted" as const, event_id: event.eventId };
}
