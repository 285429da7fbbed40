import { listApiKeys as op } from "@fleet/contracts";
import { listApiKeys as list } from "../../services/api-keys/list-api-keys.ts";
import { tenantProcedure } from "../../trpc.ts";

export const listApiKeys = tenantProcedure(op).query(({ ctx, input }) =>
  list(ctx.services.db, ctx.principal.tenantId, input),
);
