import { markDeleting } from "../schedules/schedule-writes.ts";
import { pushSchedule } from "../schedules/sync.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";
import { fleetOwned } from "./fleet-owned.ts";

export async function deleteFleetSchedule(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; schedule_id: string; fencing_token: number },
): Promise<void> {
  const now = ctx.now();
  await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const row = await fleetOwned(tx, lease.fleetId, input.schedule_id, true);
    if (row.status !== "deleting") await markDeleting(tx, row, now);
  });
  await pushSchedule(ctx, input.schedule_id);
}
