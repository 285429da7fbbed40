import { deleteApiKey as op } from "@fleet/contracts";
import { deleteApiKey as remove } from "../../services/api-keys/revoke-api-key.ts";
import { tenantProcedure } from "../../trpc.ts";

export const deleteApiKey = tenantProcedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, ctx.principal.tenantId, input.id),
);
