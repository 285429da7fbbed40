import { reportLease as op } from "@fleet/contracts";
import { reportLease as report } from "../../services/runners/reports.ts";
import { runnerProcedure } from "../../trpc.ts";

export const reportLease = runnerProcedure(op).mutation(({ ctx, input }) =>
  report(ctx.services, ctx.principal.runnerId, input),
);
