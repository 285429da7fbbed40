import { nextStep, offersBoardTools } from "@fleet/runner/dev/scripted-model";
import type { VendorResponder } from "@fleet/testing/fake-model-vendor";
import { call } from "./fleet-api.ts";
import { operatorToken, type Tenant } from "./fleetctl.ts";

/**
 * The suite's fake model vendor (started by the global setup; the API's `openai` provider reaches it) as a
 * workspace's provider, with a model the catalogue prices, so the gateway meters real cost.
 */

/** The model the workspaces use: the vendor serves it, and `priceVendorModel` puts it in the catalogue. */
export const VENDOR_MODEL = "gpt-4o-mini";

/**
 * Puts the vendor's model in the catalogue at OpenAI's list prices (another spec may have added it), with
 * `operator` (holding `model:write`) or a new operator token.
 */
export async function priceVendorModel(apiUrl: string, operator?: string): Promise<void> {
  const token = operator ?? (await operatorToken("model:write"));
  try {
    await call(apiUrl, token, "POST", "/v1/admin/models", {
      provider: "openai",
      model_id: VENDOR_MODEL,
      context_cap_tokens: 128_000,
      input_nanos_per_mtok: 150_000_000,
      cached_input_nanos_per_mtok: 75_000_000,
      output_nanos_per_mtok: 600_000_000,
    });
  } catch {
    // already in the catalogue
  }
}

/** The tenant's provider: OpenAI (the fake vendor), the priced model, with this key (default the vendor's). */
export function setVendorProvider(
  apiUrl: string,
  tenant: Tenant,
  apiKey = process.env.E2E_MODEL_VENDOR_KEY!,
) {
  return call(apiUrl, tenant.api_key, "PUT", "/v1/tenants/me/provider", {
    provider: "openai",
    model: VENDOR_MODEL,
    api_key: apiKey,
  });
}

/** Between two streamed pieces, as the demo service paces the scripted model (apps/runner/dev/main.ts). */
const PIECE_DELAY_MS = 40;

/**
 * The vendor plays the scripted demo model (apps/runner/dev/scripted-model.ts) for any call that offers the
 * demo fleet's tools: read the board at `boardUrl`, ask to remember what it shows, answer. Its text is
 * streamed word by word, paced as the demo service paces it; usage is the vendor's own count, so the call
 * costs what the catalogue says. Other calls get the vendor's default answer.
 */
export function scriptedDemo(boardUrl: string): VendorResponder {
  return (body) => {
    if (typeof body !== "object" || body === null) return undefined;
    const request = body as Record<string, unknown>;
    if (!offersBoardTools(request)) return undefined;
    const step = nextStep(request, boardUrl);
    return {
      kind: "answer",
      text: step.text,
      toolCalls: step.toolCall ? [step.toolCall] : [],
      chunks: step.text.split(" ").length,
      chunkDelayMs: PIECE_DELAY_MS,
    };
  };
}
