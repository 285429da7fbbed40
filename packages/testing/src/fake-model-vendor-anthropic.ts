import type { WireContext } from "./fake-model-vendor.ts";
import { sendJson } from "./fake-model-vendor-sse.ts";

/** Anthropic's messages wire (to come). */
export async function handleAnthropic(context: WireContext): Promise<void> {
  sendJson(context.response, 404, {
    type: "error",
    error: { type: "not_found_error", message: "Not found" },
  });
}
