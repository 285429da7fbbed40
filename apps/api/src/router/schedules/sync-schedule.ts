import { syncSchedule as op } from "@fleet/contracts/schedules/sync-schedule";
import { syncSchedule as sync } from "../../services/schedules/sync-schedule.ts";
import { procedure } from "../../trpc.ts";

export const syncSchedule = procedure(op).mutation(({ ctx, input }) =>
  sync(ctx.services, ctx.principal.tenantId, input),
);
