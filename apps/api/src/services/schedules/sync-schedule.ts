import type { ServiceContext } from "../shared/context.ts";
import { readSchedule, viewOf } from "./schedule-view.ts";
import { pushSchedule } from "./sync.ts";

/** Retries the push at once. */
export async function syncSchedule(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; schedule_id: string },
) {
  await readSchedule(ctx.db, tenantId, input);
  await pushSchedule(ctx, input.schedule_id);
  return viewOf(ctx, input.schedule_id);
}
