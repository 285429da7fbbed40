import { replaceTenantProvider as op } from "@fleet/contracts/providers/replace-tenant-provider";
import { replaceTenantProvider as replace } from "../../services/providers/replace-tenant-provider.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const replaceTenantProvider = procedure(op).mutation(({ ctx, input }) =>
  replace(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
