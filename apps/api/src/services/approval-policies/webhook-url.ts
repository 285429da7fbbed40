import { Problem } from "@fleet/contracts";
import { type Resolve, requirePublicUrl, UrlRefused } from "../../runtime/public-address.ts";

function refused(reason: string): Problem {
  return new Problem("UZ-APPROVAL-002", { detail: reason });
}

/**
 * Checks the escalation webhook URL as a provider's base_url is checked (`requirePublicUrl`): https, no
 * credentials, and a host that is, or resolves only to, public addresses. Dev mode (`pnpm start`, and
 * tests that run a local receiver) also takes http and local hosts, as it takes file:// library sources.
 * Answers the URL to store.
 */
export async function verifyWebhookUrl(raw: string, devMode: boolean, resolve: Resolve): Promise<string> {
  if (devMode) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refused("escalation_webhook_url is not a URL.");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw refused("escalation_webhook_url must use https (or http in dev mode).");
    if (url.username !== "" || url.password !== "")
      throw refused("escalation_webhook_url must not carry credentials.");
    return url.href;
  }
  try {
    return await requirePublicUrl(raw, "escalation_webhook_url", resolve);
  } catch (error) {
    if (error instanceof UrlRefused) throw refused(error.message);
    throw error;
  }
}
