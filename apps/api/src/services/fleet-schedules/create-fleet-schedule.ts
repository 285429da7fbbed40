import { checkRecipe, viewOf } from "../schedules/schedule-view.ts";
import { insertSchedule, type NewSchedule } from "../schedules/schedule-writes.ts";
import { pushSchedule } from "../schedules/sync.ts";
import { leaseMasker } from "../secrets/lease-masker.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

export async function createFleetSchedule(
  ctx: ServiceContext,
  runnerId: string,
  input: NewSchedule & { lease_id: string; fencing_token: number },
) {
  checkRecipe(input.cron, input.timezone);
  const now = ctx.now();
  const id = await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    // The fenced write holds the fleet's row lock: the caps below hold against concurrent creates.
    // The run's masker: values delivered to the run stay masked after their secret changes.
    const message = (await leaseMasker(ctx, tx, lease))(input.message);
    return insertSchedule(
      tx,
      { id: lease.fleetId, workspaceId: lease.workspaceId },
      "fleet",
      { ...input, message },
      now,
    );
  });
  await pushSchedule(ctx, id);
  return viewOf(ctx, id);
}
