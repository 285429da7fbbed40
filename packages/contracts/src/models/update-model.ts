import { uuidv7 } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { adminModel, modelPricing } from "./model.ts";

export const updateModel = defineOperation({
  id: "models.update",
  method: "PATCH",
  path: "/v1/admin/models/{uid}",
  summary: "Change a catalogue row's size or prices (operator)",
  description:
    "Sets the fields given (at least one). provider and model_id name the row and do not change: add a row instead. 404 UZ-PROVIDER-006 for an unknown uid. Bumps the catalogue version.",
  tags: ["Models"],
  scope: "model:write",
  credentials: ["operator"],
  successStatus: 200,
  params: { uid: uuidv7("uid") },
  body: {
    context_cap_tokens: modelPricing.context_cap_tokens.optional(),
    input_nanos_per_mtok: modelPricing.input_nanos_per_mtok.optional(),
    cached_input_nanos_per_mtok: modelPricing.cached_input_nanos_per_mtok.optional(),
    output_nanos_per_mtok: modelPricing.output_nanos_per_mtok.optional(),
  },
  output: adminModel,
});
