import { createApiKey as op } from "@fleet/contracts/api-keys/create-api-key";
import { createApiKey as create } from "../../services/api-keys/create-api-key.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createApiKey = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, actorOf(ctx), ctx.principal, {
    tenantId: ctx.principal.tenantId,
    userId: ctx.principal.userId,
    keyName: input.key_name,
    description: input.description,
    rateLimit: input.rate_limit,
    scopes: input.scopes,
    expiresAt: input.expires_at,
  }),
);
