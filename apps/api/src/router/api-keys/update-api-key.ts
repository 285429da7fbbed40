import { updateApiKey as op } from "@fleet/contracts/api-keys/update-api-key";
import { revokeApiKey } from "../../services/api-keys/update-api-key.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const updateApiKey = procedure(op).mutation(({ ctx, input }) =>
  revokeApiKey(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.id),
);
