import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/**
 * Whether the service may call an address: the one check that every address a host resolves to is public
 * (`resolvePublic`), for provider base URLs and library git sources alike. One non-public address refuses
 * the host, so a name that resolves to a public and a private address is refused too. `isPublicAddress`
 * and `readBaseUrl` are pure; `resolvePublic` resolves the name (time-bounded, injectable for tests).
 */

type Cidr = readonly [base: bigint, bits: number];

function v4(text: string): bigint {
  return text.split(".").reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function v4Cidr(text: string): Cidr {
  const [base, bits] = text.split("/");
  return [v4(base!), Number(bits)];
}

/** IPv4 ranges that are not globally reachable unicast (IANA special-purpose registry, RFC 6890 and on). */
const refusedV4: readonly Cidr[] = [
  "0.0.0.0/8", // "this network", including the unspecified 0.0.0.0
  "10.0.0.0/8", // private
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8", // loopback
  "169.254.0.0/16", // link-local, including the 169.254.169.254 metadata service
  "172.16.0.0/12", // private
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation
  "192.88.99.0/24", // 6to4 relay anycast
  "192.168.0.0/16", // private
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, including the broadcast 255.255.255.255
].map(v4Cidr);

function inCidr(address: bigint, [base, bits]: Cidr, width: number): boolean {
  const shift = BigInt(width - bits);
  return address >> shift === base >> shift;
}

function publicV4(address: bigint): boolean {
  return !refusedV4.some((cidr) => inCidr(address, cidr, 32));
}

/** An IPv6 text (already valid per `isIP`) as a 128-bit number. */
function v6(text: string): bigint {
  let body = text.split("%")[0]!.toLowerCase(); // a zone names an interface: only link-local has one
  const dotted = body.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const n = v4(dotted[1]!);
    body = `${body.slice(0, -dotted[1]!.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = body.split("::") as [string, string | undefined];
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((n, group) => (n << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

function v6Cidr(text: string): Cidr {
  const [base, bits] = text.split("/");
  return [v6(base!), Number(bits)];
}

/** Only global unicast (2000::/3) can be public; inside it these are not. */
const globalUnicast = v6Cidr("2000::/3");
const refusedGlobalV6: readonly Cidr[] = [
  "2001::/23", // IETF protocol assignments, including Teredo (which hides an IPv4 address)
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation
].map(v6Cidr);
/** Prefixes that embed an IPv4 address, which decides: IPv4-mapped, NAT64 well-known, 6to4. */
const mapped = v6Cidr("::ffff:0:0/96");
const nat64 = v6Cidr("64:ff9b::/96");
const sixToFour = v6Cidr("2002::/16");

function publicV6(address: bigint): boolean {
  if (inCidr(address, mapped, 128) || inCidr(address, nat64, 128)) return publicV4(address & 0xffffffffn);
  if (inCidr(address, sixToFour, 128)) return publicV4((address >> 80n) & 0xffffffffn);
  return inCidr(address, globalUnicast, 128) && !refusedGlobalV6.some((cidr) => inCidr(address, cidr, 128));
}

/**
 * Whether an IP address (as DNS or a URL gives it) is public: globally reachable unicast. Anything that
 * is not a canonical IPv4 or IPv6 address is refused rather than guessed at.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  switch (isIP(text.split("%")[0]!)) {
    case 4:
      return isIP(text) === 4 && publicV4(v4(text)); // an IPv4 address carries no zone
    case 6:
      return publicV6(v6(text));
    default:
      return false;
  }
}

/** A base_url read for checking: its canonical form, and its host (an IP literal or a name to resolve). */
export type BaseUrlReading =
  | { ok: true; href: string; host: string; literal: boolean }
  | { ok: false; reason: string };

/**
 * Reads a base_url with the WHATWG URL parser, which turns every IPv4 spelling (decimal `2130706433`,
 * octal `0177.0.0.1`, hex `0x7f.1`, short `127.1`) into its dotted form, so the address checked is the
 * address a client would connect to. Refuses what is not https, carries credentials, or names a local
 * host by name (`localhost`, `*.localhost`).
 */
export function readBaseUrl(raw: string): BaseUrlReading {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "base_url is not a URL." };
  }
  if (url.protocol !== "https:") return { ok: false, reason: "base_url must use https." };
  if (url.username !== "" || url.password !== "")
    return { ok: false, reason: "base_url must not carry credentials." };
  const host = url.hostname.replace(/\.$/, "").toLowerCase();
  if (host === "") return { ok: false, reason: "base_url has no host." };
  if (host === "localhost" || host.endsWith(".localhost"))
    return { ok: false, reason: "base_url must name a public host." };
  const literal = host.startsWith("[") || isIP(host) !== 0;
  if (literal && !isPublicAddress(host)) return { ok: false, reason: "base_url must name a public host." };
  return { ok: true, href: url.href, host: literal ? host.replace(/^\[|\]$/g, "") : host, literal };
}

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

export class HostRefused extends Error {}
export class HostUnresolved extends Error {}

/**
 * The addresses `host` (a name or an IP literal) resolves to, all of them public; else HostRefused (a
 * private or reserved address among them) or HostUnresolved. The one check that every resolved address is
 * public: the caller pins its connection to these addresses, so a second resolution cannot swap in a
 * private one.
 */
export async function resolvePublic(host: string, resolve: Resolve = systemResolve): Promise<string[]> {
  const literal = host.replace(/^\[(.*)\]$/, "$1");
  if (isIP(literal) !== 0) {
    if (!isPublicAddress(literal)) throw new HostRefused(`${host} is not a public address`);
    return [literal];
  }
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new HostUnresolved(`${host} does not resolve`);
  }
  if (addresses.length === 0) throw new HostUnresolved(`${host} does not resolve`);
  if (!addresses.every(isPublicAddress)) throw new HostRefused(`${host} resolves to a non-public address`);
  return addresses;
}

/** A URL `checkPublicUrl` refused; the message names the field and says why. */
export class UrlRefused extends Error {
  /** True when the host did not resolve (or not in time), rather than resolving to a non-public address. */
  readonly unresolved: boolean;

  constructor(message: string, unresolved = false) {
    super(message);
    this.unresolved = unresolved;
  }
}

/** A URL `checkPublicUrl` accepted: its canonical form, and the public addresses its host had then. */
export interface CheckedUrl {
  href: string;
  /** What a connection to the URL may go to (`pinnedLookup`, pinned-connect.ts): checked, non-empty. */
  addresses: string[];
}

/**
 * Checks a URL this service will call out to (a provider's base_url, an escalation webhook): https, no
 * credentials, and a host that is, or resolves only to, public addresses. `field` names the URL in the
 * refusal. Answers the canonical URL and the addresses checked. The check holds when it is made: whoever
 * connects must connect to those addresses (pinned-connect.ts), or check again, since a name can change
 * what it resolves to.
 */
export async function checkPublicUrl(raw: string, field: string, resolve: Resolve): Promise<CheckedUrl> {
  const reading = readBaseUrl(raw);
  if (!reading.ok) throw new UrlRefused(reading.reason.replace("base_url", field));
  try {
    return { href: reading.href, addresses: await resolvePublic(reading.host, resolve) };
  } catch (error) {
    if (error instanceof HostRefused) {
      throw new UrlRefused(`${field}'s host ${reading.host} resolves to an address that is not public.`);
    }
    throw new UrlRefused(`${field}'s host ${reading.host} does not resolve.`, true);
  }
}

/** `checkPublicUrl` for a URL to store: its canonical form. */
export async function requirePublicUrl(raw: string, field: string, resolve: Resolve): Promise<string> {
  return (await checkPublicUrl(raw, field, resolve)).href;
}

/**
 * `requirePublicUrl` for a URL the service will POST notices to (an escalation webhook, a webhook
 * endpoint). Dev mode (`pnpm start`, and tests that run a local receiver) also takes http and local hosts,
 * as it takes file:// library sources. Answers the URL to store; refuses with `UrlRefused` naming `field`.
 */
export async function requireOutgoingUrl(
  raw: string,
  field: string,
  devMode: boolean,
  resolve: Resolve,
): Promise<string> {
  if (!devMode) return requirePublicUrl(raw, field, resolve);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused(`${field} is not a URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new UrlRefused(`${field} must use https (or http in dev mode).`);
  if (url.username !== "" || url.password !== "")
    throw new UrlRefused(`${field} must not carry credentials.`);
  return url.href;
}
