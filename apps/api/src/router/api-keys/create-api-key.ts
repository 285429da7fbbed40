import { createApiKey as op } from "@fleet/contracts";
import { mintApiKey } from "../../services/api-keys/mint-api-key.ts";
import { tenantProcedure } from "../../trpc.ts";

export const createApiKey = tenantProcedure(op).mutation(({ ctx, input }) =>
  mintApiKey(
    ctx.services.db,
    {
      tenantId: ctx.principal.tenantId,
      userId: ctx.principal.userId,
      keyName: input.key_name,
      description: input.description,
    },
    ctx.services.now(),
  ),
);
