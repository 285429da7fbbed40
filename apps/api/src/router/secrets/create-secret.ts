import { createSecret as op } from "@fleet/contracts/secrets/create-secret";
import { createSecret as create } from "../../services/secrets/create-secret.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createSecret = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
