import { Problem } from "@fleet/contracts";
import type { Principal } from "../auth/principal.ts";

/**
 * A stream's place, taken when it is admitted and given back once: when it closes, or when the request
 * fails before it opens. Taken before the request's first await, so racing requests cannot pass a cap.
 */
export interface StreamSlot {
  release(): void;
}

export interface StreamShareSettings {
  /** Streams this instance holds open at once. */
  max: number;
  /** Streams one tenant holds open on this instance at once. */
  maxPerTenant: number;
  /** Streams one credential (a key, a person's sessions) holds open on this instance at once. */
  maxPerCredential: number;
}

/** Who a stream counts against: its tenant and its credential (null for a principal of no tenant). */
function holdersOf(principal: Principal): { tenant: string | null; credential: string } {
  switch (principal.class) {
    case "runner":
      return { tenant: null, credential: `runner:${principal.runnerId}` };
    case "operator":
      return { tenant: null, credential: `operator:${principal.subject}` };
    default:
      return { tenant: principal.tenantId, credential: principal.bucketKey };
  }
}

/**
 * The instance's streams counted whole, per tenant and per credential (docs/decisions/live-streams.md,
 * "Limits"): a tenant's share is below the instance's cap, so one tenant's streams never take another's
 * live tail away.
 */
export class StreamShares {
  /** Admitted streams (open, or about to be). */
  private admitted = 0;
  /** Per `t:<tenant>` and `c:<credential>`; a key is deleted when its count is back to 0. */
  private readonly held = new Map<string, number>();

  constructor(private readonly settings: StreamShareSettings) {}

  admit(principal: Principal): StreamSlot {
    if (this.admitted >= this.settings.max)
      throw new Problem("UZ-API-002", {
        detail: "This instance holds as many streams as it takes; retry shortly (or on another instance).",
        headers: { "retry-after": "5" },
      });
    const { tenant, credential } = holdersOf(principal);
    const keys = [`c:${credential}`];
    if ((this.held.get(keys[0]!) ?? 0) >= this.settings.maxPerCredential)
      throw tooMany(
        `This credential holds ${this.settings.maxPerCredential} open streams, as many as it may`,
      );
    if (tenant !== null) {
      keys.push(`t:${tenant}`);
      if ((this.held.get(keys[1]!) ?? 0) >= this.settings.maxPerTenant)
        throw tooMany(`This tenant holds ${this.settings.maxPerTenant} open streams, as many as it may`);
    }
    this.admitted++;
    for (const key of keys) this.held.set(key, (this.held.get(key) ?? 0) + 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.admitted--;
        for (const key of keys) {
          const left = this.held.get(key)! - 1;
          if (left === 0) this.held.delete(key);
          else this.held.set(key, left);
        }
      },
    };
  }
}

function tooMany(detail: string): Problem {
  return new Problem("UZ-API-001", {
    detail: `${detail} on this instance; close one, or retry after the Retry-After delay.`,
    headers: { "retry-after": "5" },
  });
}
