import { replaceSecret as op } from "@fleet/contracts";
import { replaceSecret as replace } from "../../services/secrets/secrets.ts";
import { tenantProcedure } from "../../trpc.ts";

export const replaceSecret = tenantProcedure(op).mutation(({ ctx, input }) =>
  replace(ctx.services, ctx.principal.tenantId, input),
);
