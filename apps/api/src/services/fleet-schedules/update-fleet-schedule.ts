import { viewOf } from "../schedules/schedule-view.ts";
import { applyChange, refuseWhileSyncing, type ScheduleChange } from "../schedules/schedule-writes.ts";
import { pushSchedule } from "../schedules/sync.ts";
import { leaseMasker } from "../secrets/lease-masker.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";
import { fleetOwned } from "./fleet-owned.ts";

export async function updateFleetSchedule(
  ctx: ServiceContext,
  runnerId: string,
  input: ScheduleChange & { lease_id: string; schedule_id: string; fencing_token: number },
) {
  const now = ctx.now();
  await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const row = await fleetOwned(tx, lease.fleetId, input.schedule_id, true);
    refuseWhileSyncing(row);
    // The run's masker: values delivered to the run stay masked after their secret changes.
    const message =
      input.message == null ? input.message : (await leaseMasker(ctx, tx, lease))(input.message);
    await applyChange(tx, row, { ...input, message }, now);
  });
  await pushSchedule(ctx, input.schedule_id);
  return viewOf(ctx, input.schedule_id);
}
