import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";

export const deleteTenantProvider = defineOperation({
  id: "providers.deleteTenant",
  method: "DELETE",
  path: "/v1/tenants/me/provider",
  summary: "Return the tenant to the platform default provider",
  description:
    "Removes the tenant's provider and its sealed key, so the tenant's fleets use the platform default. 409 UZ-PROVIDER-009 when the platform has no default configured (nothing is changed); 404 UZ-PROVIDER-003 when the tenant has no provider set.",
  tags: ["Providers"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 204,
  errorStatuses: [404, 409],
  output: z.void(),
});
