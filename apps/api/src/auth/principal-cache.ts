import type { Problem } from "@fleet/contracts";
import type { DatabaseHandle } from "@fleet/db";
import { PeerAcks, SYNC_PREFIX } from "./peer-acks.ts";
import type { Principal } from "./principal.ts";

export const AUTH_CHANNEL = "fleet_auth";

interface Entry {
  /** A principal, or the refusal the credential earned (a revoked key stays refused). */
  value: Principal | Problem;
  tags: string[];
  expiresAt: number;
}

/**
 * Credentials resolved to principals, kept in process so an authenticated read costs no database round
 * trip. Every change that affects a principal (revoking a key, changing or removing a membership)
 * publishes a NOTIFY on `fleet_auth` inside its transaction; every instance LISTENs and drops the matching
 * entries, and the change is answered only once every instance has acked it (`PeerAcks`), so a revoked
 * key is refused at once everywhere, from the revoker's very next request on. A NOTIFY sent while an instance's LISTEN
 * connection is down never reaches it, so as soon as this process sees that connection's socket close the
 * cache is emptied and bypassed: every request resolves from the database (and fails while the database
 * is unreachable) until LISTEN runs again on a new connection, when the cache is emptied once more and
 * serves again.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private live = false;
  /**
   * Bumped by every invalidation. A resolution that began before an invalidation must not be cached:
   * it may have read the row as it was before the change committed.
   */
  private generation = 0;
  private unlisten: (() => Promise<void>) | null = null;
  private acks: PeerAcks | null = null;
  /** Told of every invalidation (the live-tail streams recheck their callers' access then). */
  private readonly observers: ((tag: string) => void)[] = [];

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 100_000,
  ) {}

  async start(handle: DatabaseHandle): Promise<void> {
    const acks = new PeerAcks(handle, AUTH_CHANNEL);
    this.acks = acks;
    this.unlisten = await handle.listen(
      AUTH_CHANNEL,
      (payload) => {
        if (payload.startsWith(SYNC_PREFIX)) acks.receive(payload);
        else this.invalidate(payload);
      },
      () => {
        this.generation++;
        this.entries.clear();
        this.live = true;
        acks.announce();
      },
      () => this.suspend(),
    );
  }

  async stop(): Promise<void> {
    if (this.live) this.acks?.leave();
    this.live = false;
    this.entries.clear();
    try {
      await this.unlisten?.();
    } catch {
      // the connection is already gone, and the subscription with it
    }
  }

  /** Taken before reading the database; handed back to `set`. */
  snapshot(): number {
    return this.generation;
  }

  get(key: string, now: number): Principal | Problem | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(
    key: string,
    value: Principal | Problem,
    tags: string[],
    now: number,
    since: number,
    maxAgeMs = this.ttlMs,
  ): void {
    if (!this.live || since !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, tags, expiresAt: now + Math.min(maxAgeMs, this.ttlMs) });
  }

  /** Calls `observer` after every invalidation, with its tag. */
  observe(observer: (tag: string) => void): void {
    this.observers.push(observer);
  }

  /** Drops every entry carrying the tag (`key:<id>`, `user:<id>`, `tenant:<id>`, `runner:<id>`, `*`). */
  invalidate(tag: string): void {
    this.drop(tag);
    for (const observer of this.observers) observer(tag);
  }

  private drop(tag: string): void {
    this.generation++;
    if (tag === "*") {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) if (entry.tags.includes(tag)) this.entries.delete(key);
  }

  /**
   * Resolves once every instance (this one and the others it knows) has applied the changes committed so
   * far (`PeerAcks`), or after `ms`; at once while this instance's subscription is down (its cache is
   * bypassed then, and its LISTEN cannot carry the acks).
   */
  async settled(ms = 1_000): Promise<void> {
    if (this.live) await this.acks?.settle(ms);
  }

  /** Marks the subscription lost: serve from the database until it is back. */
  suspend(): void {
    this.generation++;
    this.live = false;
    this.entries.clear();
  }
}
