import { listApiKeys as op } from "@fleet/contracts/api-keys/list-api-keys";
import { listApiKeys as list } from "../../services/api-keys/list-api-keys.ts";
import { procedure } from "../../trpc.ts";

export const listApiKeys = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
