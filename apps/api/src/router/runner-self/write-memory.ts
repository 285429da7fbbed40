import { writeMemory as op } from "@fleet/contracts";
import { writeMemory as write } from "../../services/runners/reports.ts";
import { runnerProcedure } from "../../trpc.ts";

export const writeMemory = runnerProcedure(op).mutation(({ ctx, input }) =>
  write(ctx.services, ctx.principal.runnerId, input),
);
