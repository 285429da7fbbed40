import { lookup } from "node:dns/promises";
import { Problem } from "@fleet/contracts";
import { isPublicAddress, readBaseUrl } from "../../runtime/public-address.ts";

/** Resolves a host name to every address it has. Injected, so tests run without a network. */
export type Resolve = (host: string) => Promise<string[]>;

const RESOLVE_TIMEOUT_MS = 3000;

/** The system resolver (what a client connecting to the host would use), every address, bounded in time. */
export const systemResolve: Resolve = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("lookup timed out")), RESOLVE_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    return found.map((entry) => entry.address);
  } finally {
    clearTimeout(timer);
  }
};

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
  let addresses: string[];
  try {
    addresses = await resolve(reading.host);
  } catch {
    throw refused(`base_url's host ${reading.host} does not resolve.`);
  }
  if (addresses.length === 0) throw refused(`base_url's host ${reading.host} does not resolve.`);
  if (!addresses.every(isPublicAddress)) {
    throw refused(`base_url's host ${reading.host} resolves to an address that is not public.`);
  }
  return reading.href;
}
