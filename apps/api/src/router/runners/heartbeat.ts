import { heartbeat as op } from "@fleet/contracts/runners/heartbeat";
import { heartbeat as beat } from "../../services/runners/heartbeat.ts";
import { procedure } from "../../trpc.ts";

export const heartbeat = procedure(op).mutation(({ ctx, input }) =>
  beat(ctx.services, ctx.principal.runnerId, input.capability_report),
);
