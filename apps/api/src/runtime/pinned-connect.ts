import { isIP, type LookupFunction } from "node:net";
import { Agent, type Dispatcher } from "undici";

/**
 * Connecting only to addresses a check approved (public-address.ts, `resolvePublic`): a name checked as
 * public cannot be re-pointed at a private address (DNS rebinding) between the check and the connection,
 * because the connection never asks the resolver again. TLS still verifies the certificate against the
 * URL's host name, and the Host header stays the name.
 */

/**
 * A `lookup` for `net.connect`/`tls.connect` (node:http's `lookup` option, undici's `connect.lookup`)
 * that answers only `addresses`, whatever the host name: every one of them when asked for all (Node's
 * connection attempts then try them in turn), else the first, of the family asked for if one is.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (host, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
    const wanted = family === 4 || family === 6 ? entries.filter((e) => e.family === family) : entries;
    const first = wanted[0];
    if (first === undefined) {
      const error: NodeJS.ErrnoException = new Error(`${host} has no checked address of family ${family}`);
      error.code = "ENOTFOUND";
      callback(error, "", 0);
    } else if (options.all) {
      (callback as (error: null, found: { address: string; family: number }[]) => void)(null, wanted);
    } else callback(null, first.address, first.family);
  };
}

/** Pinned dispatchers kept at once; past it the least recently used is closed once its requests end. */
export const PINNED_DISPATCHERS_MAX = 64;

/**
 * Dispatchers (fetch's `dispatcher` option) that connect only to a set of checked addresses, one per
 * set, kept-alive connections included, so a call does not pay for a new connection pool (and a new TLS
 * handshake) each time. A dispatcher answers only its addresses, whatever origin it is asked for, so one
 * keyed by the addresses alone is safe for every host that was checked to resolve to exactly them: each
 * origin gets its own connections inside it. Bounded: a name whose answers keep changing cannot grow the
 * cache past `max`; an evicted dispatcher finishes the requests (streams) it carries, then closes.
 */
export class PinnedDispatchers {
  readonly #kept = new Map<string, Agent>();

  constructor(private readonly max = PINNED_DISPATCHERS_MAX) {}

  /** The dispatcher pinned to `addresses` (checked, non-empty), made on first use. */
  for(addresses: readonly string[]): Dispatcher {
    const key = addresses.length === 1 ? addresses[0]! : [...addresses].sort().join(" ");
    const kept = this.#kept.get(key);
    if (kept !== undefined) {
      // Most recently used last: the map's order is the eviction order.
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept;
    }
    const made = new Agent({ connect: { lookup: pinnedLookup(addresses) } });
    this.#kept.set(key, made);
    if (this.#kept.size > this.max) {
      const [oldest, agent] = this.#kept.entries().next().value as [string, Agent];
      this.#kept.delete(oldest);
      void agent.close().catch(() => {});
    }
    return made;
  }

  /** How many are kept (for tests of the bound). */
  get size(): number {
    return this.#kept.size;
  }

  /** Closes every kept dispatcher once its requests end. */
  async close(): Promise<void> {
    const agents = [...this.#kept.values()];
    this.#kept.clear();
    await Promise.all(agents.map((agent) => agent.close().catch(() => {})));
  }
}
