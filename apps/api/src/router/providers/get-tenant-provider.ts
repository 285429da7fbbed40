import { getTenantProvider as op } from "@fleet/contracts/providers/get-tenant-provider";
import { getTenantProvider as get } from "../../services/providers/get-tenant-provider.ts";
import { procedure } from "../../trpc.ts";

export const getTenantProvider = procedure(op).query(({ ctx }) => get(ctx.services, ctx.principal.tenantId));
