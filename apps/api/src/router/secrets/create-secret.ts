import { createSecret as op } from "@fleet/contracts";
import { createSecret as create } from "../../services/secrets/secrets.ts";
import { tenantProcedure } from "../../trpc.ts";

export const createSecret = tenantProcedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, ctx.principal.tenantId, input),
);
