import { Problem } from "@fleet/contracts";
import { HostRefused, type Resolve, readBaseUrl, resolvePublic } from "../../runtime/public-address.ts";

function refused(reason: string): Problem {
  return new Problem("UZ-PROVIDER-005", { detail: reason });
}

/**
 * Checks a base_url: https, and its host an IP literal that is public or a name every address of which is
 * public. Answers the canonical URL to store. The check holds when it is made: whoever connects must
 * connect to the addresses it resolves then, or check again, since a name can change what it resolves to.
 */
export async function verifyBaseUrl(raw: string, resolve: Resolve): Promise<string> {
  const reading = readBaseUrl(raw);
  if (!reading.ok) throw refused(reading.reason);
  if (reading.literal) return reading.href;
  try {
    await resolvePublic(reading.host, resolve);
  } catch (error) {
    throw refused(
      error instanceof HostRefused
        ? `base_url's host ${reading.host} resolves to an address that is not public.`
        : `base_url's host ${reading.host} does not resolve.`,
    );
  }
  return reading.href;
}
