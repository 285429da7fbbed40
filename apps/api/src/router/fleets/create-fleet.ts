import { createFleet as op } from "@fleet/contracts";
import { installFleet } from "../../services/fleets/install-fleet.ts";
import { pushSchedule } from "../../services/schedules/sync.ts";
import { tenantProcedure } from "../../trpc.ts";

export const createFleet = tenantProcedure(op).mutation(async ({ ctx, input }) => {
  const installed = await installFleet(ctx.services, ctx.principal.tenantId, input);
  // The trigger schedules are stored; registering them is best-effort here, the reconciler's otherwise.
  await Promise.all(installed.schedule_ids.map((id) => pushSchedule(ctx.services, id)));
  return installed;
});
