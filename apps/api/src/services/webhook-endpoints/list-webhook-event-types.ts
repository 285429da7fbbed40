import { webhookEventCatalogue, webhookEventTypes } from "@fleet/contracts";
import { z } from "zod";

/** The catalogue, with each type's `data` as JSON Schema, built once from the contracts. */
const catalogue = {
  items: webhookEventTypes.map((type) => ({
    type,
    description: webhookEventCatalogue[type].description,
    data_schema: z.toJSONSchema(webhookEventCatalogue[type].data, { unrepresentable: "any" }) as Record<
      string,
      unknown
    >,
  })),
};

export function listWebhookEventTypes() {
  return catalogue;
}
