import { renewLease as op } from "@fleet/contracts";
import { renewLease as renew } from "../../services/runners/leasing.ts";
import { runnerProcedure } from "../../trpc.ts";

export const renewLease = runnerProcedure(op).mutation(({ ctx, input }) =>
  renew(ctx.services, ctx.principal.runnerId, input),
);
