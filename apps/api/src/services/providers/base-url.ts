import { Problem } from "@fleet/contracts";
import { type CheckedUrl, checkPublicUrl, type Resolve, UrlRefused } from "../../runtime/public-address.ts";

/**
 * Checks a base_url: https, and its host an IP literal that is public or a name every address of which is
 * public (`checkPublicUrl`). Answers the canonical URL to store.
 */
export async function verifyBaseUrl(raw: string, resolve: Resolve): Promise<string> {
  try {
    return (await checkPublicUrl(raw, "base_url", resolve)).href;
  } catch (error) {
    if (error instanceof UrlRefused) throw new Problem("UZ-PROVIDER-005", { detail: error.message });
    throw error;
  }
}

/**
 * The same check when a stored base_url is used (the model gateway, docs/decisions/model-gateway.md):
 * answers the addresses the call must connect to (pinned-connect.ts), so the host cannot be re-pointed
 * between this check and the connection. A host that now resolves to a non-public address is 400
 * UZ-PROVIDER-005 as at save; one that does not resolve (or not in time) is the provider unreachable,
 * 502 UZ-MODEL-002, which a client may retry.
 */
export async function checkStoredBaseUrl(raw: string, resolve: Resolve): Promise<CheckedUrl> {
  try {
    return await checkPublicUrl(raw, "base_url", resolve);
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    throw new Problem(error.unresolved ? "UZ-MODEL-002" : "UZ-PROVIDER-005", { detail: error.message });
  }
}
