import { releaseLease as op } from "@fleet/contracts";
import { releaseLease as release } from "../../services/runners/leasing.ts";
import { runnerProcedure } from "../../trpc.ts";

export const releaseLease = runnerProcedure(op).mutation(async ({ ctx, input }) => {
  const released = await release(ctx.services, ctx.principal.runnerId, input);
  ctx.services.work.announce(); // the fleet's waiting work can be leased now
  return released;
});
