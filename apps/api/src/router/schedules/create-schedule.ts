import { createSchedule as op } from "@fleet/contracts/schedules/create-schedule";
import { createSchedule as create } from "../../services/schedules/create-schedule.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createSchedule = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
