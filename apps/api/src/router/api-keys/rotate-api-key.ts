import { rotateApiKey as op } from "@fleet/contracts/api-keys/rotate-api-key";
import { rotateApiKey as rotate } from "../../services/api-keys/rotate-api-key.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const rotateApiKey = procedure(op).mutation(({ ctx, input }) =>
  rotate(ctx.services, actorOf(ctx), ctx.principal, {
    id: input.id,
    graceSeconds: input.grace_period_seconds,
  }),
);
