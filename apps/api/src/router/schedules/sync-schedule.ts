import { syncSchedule as op } from "@fleet/contracts";
import { syncSchedule as sync } from "../../services/schedules/schedules.ts";
import { tenantProcedure } from "../../trpc.ts";

export const syncSchedule = tenantProcedure(op).mutation(({ ctx, input }) =>
  sync(ctx.services, ctx.principal.tenantId, input),
);
