import { modelName, providerName } from "../models/model.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { baseUrl, providerApiKey, tenantProvider } from "./provider.ts";

export const replaceTenantProvider = defineOperation({
  id: "providers.replaceTenant",
  method: "PUT",
  path: "/v1/tenants/me/provider",
  summary: "Set the tenant's model provider",
  description:
    "provider is platform (the platform default's key; 409 UZ-PROVIDER-009 when none is configured), anthropic or openai (api_key required, base_url refused), or openai_compatible (https base_url resolving only to public addresses, else 400 UZ-PROVIDER-005). model must be a catalogue row of the provider (400 UZ-PROVIDER-004). Without api_key, the held key is kept if provider and base_url are unchanged. The key is sealed and never returned.",
  tags: ["Providers"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409, 503],
  body: {
    provider: providerName,
    api_key: providerApiKey.optional(),
    model: modelName("model"),
    base_url: baseUrl.optional(),
  },
  output: tenantProvider,
});
