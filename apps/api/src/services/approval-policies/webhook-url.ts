import { Problem } from "@fleet/contracts";
import { type Resolve, requireOutgoingUrl, UrlRefused } from "../../runtime/public-address.ts";

/**
 * Checks the escalation webhook URL as a provider's base_url is checked (`requireOutgoingUrl`): https, no
 * credentials, and a host that is, or resolves only to, public addresses; dev mode also takes http and
 * local hosts. Answers the URL to store.
 */
export async function verifyWebhookUrl(raw: string, devMode: boolean, resolve: Resolve): Promise<string> {
  try {
    return await requireOutgoingUrl(raw, "escalation_webhook_url", devMode, resolve);
  } catch (error) {
    if (error instanceof UrlRefused) throw new Problem("UZ-APPROVAL-002", { detail: error.message });
    throw error;
  }
}
