import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { checkRecipe, viewOf } from "./schedule-view.ts";
import { insertSchedule, type NewSchedule } from "./schedule-writes.ts";
import { pushSchedule } from "./sync.ts";

export async function createSchedule(
  ctx: ServiceContext,
  tenantId: string,
  input: NewSchedule & { workspace_id: string; fleet_id: string },
) {
  checkRecipe(input.cron, input.timezone);
  const now = ctx.now();
  const id = await ctx.db.transaction(async (tx) => {
    const fleet = await requireFleet(tx, tenantId, input.workspace_id, input.fleet_id, { forUpdate: true });
    return insertSchedule(tx, fleet, "api", input, now);
  });
  await pushSchedule(ctx, id);
  return viewOf(ctx, id);
}
