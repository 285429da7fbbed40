import { acquireLease as op } from "@fleet/contracts";
import { acquireLease as acquire } from "../../services/runners/leasing.ts";
import { runnerProcedure } from "../../trpc.ts";

export const acquireLease = runnerProcedure(op).mutation(({ ctx, input }) =>
  acquire(ctx.services, ctx.principal.runnerId, input.wait_ms, ctx.socket),
);
