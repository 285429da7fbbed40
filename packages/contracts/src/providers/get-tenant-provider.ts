import { defineOperation, tenantCredentials } from "../operation.ts";
import { tenantProvider } from "./provider.ts";

export const getTenantProvider = defineOperation({
  id: "providers.getTenant",
  method: "GET",
  path: "/v1/tenants/me/provider",
  summary: "Read the tenant's model provider",
  description:
    "Never the key: has_api_key says whether one is held. 404 UZ-PROVIDER-003 when none is set; in dev mode, when neither the tenant nor the platform has a provider and the scripted demo model answers the fleets' model calls instead (FLEET_DEV_SCRIPTED_MODEL_URL), that 404 carries current_state: scripted_demo_model.",
  tags: ["Providers"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [404],
  output: tenantProvider,
});
