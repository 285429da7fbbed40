import { replaceSecret as op } from "@fleet/contracts/secrets/replace-secret";
import { replaceSecret as replace } from "../../services/secrets/secrets.ts";
import { procedure } from "../../trpc.ts";

export const replaceSecret = procedure(op).mutation(({ ctx, input }) =>
  replace(ctx.services, ctx.principal.tenantId, input),
);
