import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { isIP, type LookupFunction } from "node:net";

/**
 * Connecting only to addresses a check approved (public-address.ts, `resolvePublic`): a name checked as
 * public cannot be re-pointed at a private address (DNS rebinding) between the check and the connection,
 * because the connection never asks the resolver again. TLS still verifies the certificate against the
 * URL's host name, and the Host header stays the name.
 */

/**
 * A `lookup` for `net.connect`/`tls.connect` (node:http's `lookup` option)
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

/** Pinned agent pairs kept at once; past it the least recently used is dropped (its streams finish). */
export const PINNED_AGENTS_MAX = 64;

/** Kept-alive connections: an idle one closes after 4 s, before a Node server's own 5 s keep-alive. */
export const KEEP_ALIVE = { keepAlive: true, scheduling: "lifo", timeout: 4_000 } as const;

/** One `http` and one `https` agent connecting only to one set of checked addresses. */
export interface PinnedAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

/**
 * node:http agents that connect only to a set of checked addresses, one pair per set, kept-alive
 * connections included, so a call does not pay for a new connection (and a new TLS handshake) each time.
 * An agent answers only its addresses, whatever host it is asked for, so one keyed by the addresses alone
 * is safe for every host that was checked to resolve to exactly them: each host gets its own connections
 * inside it. Bounded: a name whose answers keep changing cannot grow the cache past `max`; a dropped pair
 * is not destroyed, so the requests (streams) it carries finish and its idle connections time out.
 */
export class PinnedAgentPool {
  readonly #kept = new Map<string, PinnedAgents>();

  constructor(private readonly max = PINNED_AGENTS_MAX) {}

  /** The agents pinned to `addresses` (checked, non-empty), made on first use. */
  for(addresses: readonly string[]): PinnedAgents {
    const key = addresses.length === 1 ? addresses[0]! : [...addresses].sort().join(" ");
    const kept = this.#kept.get(key);
    if (kept !== undefined) {
      // Most recently used last: the map's order is the drop order.
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept;
    }
    const lookup = pinnedLookup(addresses);
    const made = {
      http: new HttpAgent({ ...KEEP_ALIVE, lookup }),
      https: new HttpsAgent({ ...KEEP_ALIVE, lookup }),
    };
    this.#kept.set(key, made);
    if (this.#kept.size > this.max) this.#kept.delete(this.#kept.keys().next().value!);
    return made;
  }

  /** How many are kept (for tests of the bound). */
  get size(): number {
    return this.#kept.size;
  }

  /** Closes every kept agent's connections. */
  close(): void {
    for (const { http, https } of this.#kept.values()) {
      http.destroy();
      https.destroy();
    }
    this.#kept.clear();
  }
}
