import { publishActivity as op } from "@fleet/contracts";
import { publishActivity as publish } from "../../services/runners/reports.ts";
import { runnerProcedure } from "../../trpc.ts";

export const publishActivity = runnerProcedure(op).mutation(({ ctx, input }) =>
  publish(ctx.services, ctx.principal.runnerId, input),
);
