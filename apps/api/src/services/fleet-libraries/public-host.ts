import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isPublicAddress } from "../../runtime/public-address.ts";

export class HostRefused extends Error {}
export class HostUnresolved extends Error {}

/**
 * The addresses `hostname` resolves to, all of them public; else HostRefused (a private or reserved
 * address among them) or HostUnresolved. The caller pins the connection to these addresses, so a second
 * resolution cannot swap in a private one.
 */
export async function resolvePublic(hostname: string): Promise<string[]> {
  const literal = hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(literal) !== 0) {
    if (!isPublicAddress(literal)) throw new HostRefused(`${hostname} is not a public address`);
    return [literal];
  }
  let answers: { address: string }[];
  try {
    answers = await lookup(hostname, { all: true, verbatim: true });
  } catch {
    throw new HostUnresolved(`${hostname} does not resolve`);
  }
  if (answers.length === 0) throw new HostUnresolved(`${hostname} does not resolve`);
  for (const { address } of answers) {
    if (!isPublicAddress(address)) throw new HostRefused(`${hostname} resolves to a non-public address`);
  }
  return answers.map(({ address }) => address);
}
