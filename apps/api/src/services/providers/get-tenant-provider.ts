import type { ServiceContext } from "../shared/context.ts";
import { readTenantProvider } from "./tenant-provider-view.ts";

/** The tenant's provider; a replace answers with the same read (tenant-provider-view.ts). */
export function getTenantProvider(ctx: ServiceContext, tenantId: string) {
  return readTenantProvider(ctx, tenantId);
}
