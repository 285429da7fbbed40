import { resolveId as op } from "@fleet/contracts/ids/resolve-id";
import { resolveId as resolve } from "../../services/ids/resolve-id.ts";
import { procedure } from "../../trpc.ts";

export const resolveId = procedure(op).query(({ ctx, input }) =>
  resolve(ctx.services, ctx.principal.tenantId, ctx.principal.scopes, input.id),
);
