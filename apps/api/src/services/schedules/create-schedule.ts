import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { checkRecipe, viewOf } from "./schedule-view.ts";
import { insertSchedule, type NewSchedule } from "./schedule-writes.ts";
import { pushSchedule } from "./sync.ts";

export async function createSchedule(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: NewSchedule & { workspace_id: string; fleet_id: string },
) {
  checkRecipe(input.cron, input.timezone);
  const now = ctx.now();
  const id = await ctx.db.transaction(async (tx) => {
    const fleet = await requireFleet(tx, tenantId, input.workspace_id, input.fleet_id, { forUpdate: true });
    const id = await insertSchedule(tx, fleet, "api", input, now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: fleet.workspaceId,
      action: "schedule.create",
      target: `schedule:${id}`,
      details: {
        fleet_id: fleet.id,
        cron: input.cron.trim(),
        timezone: input.timezone ?? "UTC",
        once: input.once,
      },
    });
    return id;
  });
  await pushSchedule(ctx, id);
  return viewOf(ctx, id);
}
