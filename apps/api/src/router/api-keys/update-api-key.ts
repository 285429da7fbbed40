import { updateApiKey as op } from "@fleet/contracts/api-keys/update-api-key";
import { revokeApiKey } from "../../services/api-keys/revoke-api-key.ts";
import { procedure } from "../../trpc.ts";

export const updateApiKey = procedure(op).mutation(({ ctx, input }) =>
  revokeApiKey(ctx.services, ctx.principal.tenantId, input.id),
);
