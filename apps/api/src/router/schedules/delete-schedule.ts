import { deleteSchedule as op } from "@fleet/contracts";
import { deleteSchedule as remove } from "../../services/schedules/schedules.ts";
import { tenantProcedure } from "../../trpc.ts";

export const deleteSchedule = tenantProcedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, ctx.principal.tenantId, input),
);
