import { deleteMemory as op } from "@fleet/contracts";
import { deleteMemory as remove } from "../../services/runners/reports.ts";
import { runnerProcedure } from "../../trpc.ts";

export const deleteMemory = runnerProcedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, ctx.principal.runnerId, input),
);
