import { heartbeat as op } from "@fleet/contracts";
import { heartbeat as beat } from "../../services/runners/self.ts";
import { runnerProcedure } from "../../trpc.ts";

export const heartbeat = runnerProcedure(op).mutation(({ ctx, input }) =>
  beat(ctx.services, ctx.principal.runnerId, input.capability_report),
);
