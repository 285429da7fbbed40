import { releaseLease as op } from "@fleet/contracts";
import { releaseLease as release } from "../../services/runners/leasing.ts";
import { runnerProcedure } from "../../trpc.ts";

export const releaseLease = runnerProcedure(op).mutation(({ ctx, input }) =>
  release(ctx.services, ctx.principal.runnerId, input),
);
