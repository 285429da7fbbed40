import { updateApiKey as op } from "@fleet/contracts";
import { revokeApiKey } from "../../services/api-keys/revoke-api-key.ts";
import { tenantProcedure } from "../../trpc.ts";

export const updateApiKey = tenantProcedure(op).mutation(({ ctx, input }) =>
  revokeApiKey(ctx.services, ctx.principal.tenantId, input.id),
);
