import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { modelName, providerName } from "../models/model.ts";
import { defineOperation } from "../operation.ts";
import { baseUrl, modelProviders } from "./provider.ts";

export const replacePlatformKey = defineOperation({
  id: "providers.replacePlatformKey",
  method: "PUT",
  path: "/v1/admin/platform-keys",
  summary: "Set the platform's default provider (operator)",
  description:
    "The key is the provider_api_key secret named <PROVIDER>_API_KEY (e.g. ANTHROPIC_API_KEY) in source_workspace_id, holding {api_key}; it is read where it is used, never copied. model must be a catalogue row of the provider (400 UZ-PROVIDER-004). base_url only, and always, for openai_compatible: https and public (400 UZ-PROVIDER-005). 404 UZ-WORKSPACE-002 or UZ-VAULT-003 when the workspace or its secret is missing.",
  tags: ["Providers"],
  scope: "platform-key:write",
  credentials: ["operator"],
  successStatus: 200,
  errorStatuses: [404, 503],
  body: {
    provider: providerName,
    source_workspace_id: uuidv7("source_workspace_id"),
    model: modelName("model"),
    base_url: baseUrl.optional(),
  },
  output: z
    .object({
      provider: z.enum(modelProviders),
      source_workspace_id: z.string(),
      secret_name: z.string(),
      model: z.string(),
      base_url: z.string().nullable(),
      updated_at: epochMs,
    })
    .meta({ id: "PlatformKey" }),
});
