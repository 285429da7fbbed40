import { Problem } from "@fleet/contracts";
import { type Resolve, requirePublicUrl, UrlRefused } from "../../runtime/public-address.ts";

/**
 * Checks a base_url: https, and its host an IP literal that is public or a name every address of which is
 * public (`requirePublicUrl`). Answers the canonical URL to store.
 */
export async function verifyBaseUrl(raw: string, resolve: Resolve): Promise<string> {
  try {
    return await requirePublicUrl(raw, "base_url", resolve);
  } catch (error) {
    if (error instanceof UrlRefused) throw new Problem("UZ-PROVIDER-005", { detail: error.message });
    throw error;
  }
}
