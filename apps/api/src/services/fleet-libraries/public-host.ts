import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Address ranges that are not the public internet: private, loopback, link-local, shared, reserved. */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 127], // unspecified and loopback
  ["::ffff:0:0", 96], // IPv4-mapped: refused rather than unwrapped
  ["64:ff9b::", 96], // NAT64 reaches IPv4 space
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23], // IETF protocol assignments, Teredo included
  ["2001:db8::", 32],
  ["2002::", 16], // 6to4 reaches IPv4 space
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv6");
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !nonPublic.check(address, family === 4 ? "ipv4" : "ipv6");
}

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
