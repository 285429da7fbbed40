import type { TenantPrincipal } from "../../auth/principal.ts";

/** The calling person as users/me shows them: a view of the principal the request authenticated as. */
export function getMe(principal: TenantPrincipal) {
  return {
    credential: principal.credential,
    email: principal.email,
    scopes: principal.scopes,
    tenant_id: principal.tenantId,
    tenant_name: principal.tenantName,
    user_id: principal.userId,
    ...(principal.displayName === null ? {} : { display_name: principal.displayName }),
  };
}
