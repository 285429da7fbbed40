import { defineOperation } from "../operation.ts";
import { adminModel, modelName, modelPricing, providerName } from "./model.ts";

export const createModel = defineOperation({
  id: "models.create",
  method: "POST",
  path: "/v1/admin/models",
  summary: "Add a catalogue row (operator)",
  description:
    "provider is anthropic, openai or openai_compatible (else 400 UZ-PROVIDER-001). 409 UZ-PROVIDER-008 when the catalogue already holds (provider, model_id). Bumps the catalogue version.",
  tags: ["Models"],
  scope: "model:write",
  credentials: ["operator"],
  successStatus: 201,
  errorStatuses: [409],
  body: { provider: providerName, model_id: modelName("model_id"), ...modelPricing },
  output: adminModel,
});
