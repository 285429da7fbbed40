import { createSchedule as op } from "@fleet/contracts";
import { createSchedule as create } from "../../services/schedules/schedules.ts";
import { tenantProcedure } from "../../trpc.ts";

export const createSchedule = tenantProcedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, ctx.principal.tenantId, input),
);
