import { deleteTenantProvider as op } from "@fleet/contracts/providers/delete-tenant-provider";
import { deleteTenantProvider as remove } from "../../services/providers/delete-tenant-provider.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteTenantProvider = procedure(op).mutation(({ ctx }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal.tenantId),
);
