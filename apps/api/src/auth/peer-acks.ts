import { randomUUID } from "node:crypto";
import type { DatabaseHandle } from "@fleet/db";

/** Payloads on the principal channel that carry no tag, but this protocol's messages. */
export const SYNC_PREFIX = "sync:";

/**
 * Lets a change to principals be answered only once every API instance has dropped what it cached.
 * PostgreSQL delivers a channel's notifications to each listener in commit order, so an instance that
 * answers a marker sent after the change has processed the change's own notification first. The
 * instances know each other from the same channel: one announces itself (`hello`) when its LISTEN
 * begins, the others answer (`here`); every ack or marker refreshes that, and `bye` leaves.
 *
 * A change waits for the acks of the instances it knows, at most `ms` (an instance that does not answer
 * in time is forgotten until it speaks again, so a crashed one costs one wait, not one per change).
 */
export class PeerAcks {
  readonly id = randomUUID();
  private readonly peers = new Set<string>();
  private readonly waiting = new Map<string, (from: string) => void>();

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly channel: string,
  ) {}

  /** Every message of the protocol arriving on the channel, after the tags before it were applied. */
  receive(payload: string): void {
    const [, kind, a, b] = payload.split(":");
    if (kind === "mark" && a !== undefined && b !== undefined) {
      if (b !== this.id) this.peers.add(b);
      this.send(`ack:${a}:${this.id}`);
    } else if (kind === "ack" && a !== undefined && b !== undefined) {
      if (b !== this.id) this.peers.add(b);
      this.waiting.get(a)?.(b);
    } else if (kind === "hello" && a !== undefined && a !== this.id) {
      this.peers.add(a);
      this.send(`here:${this.id}`);
    } else if (kind === "here" && a !== undefined && a !== this.id) {
      this.peers.add(a);
    } else if (kind === "bye" && a !== undefined) {
      this.peers.delete(a);
    }
  }

  /** LISTEN began (or began again on a new connection): tell the others. */
  announce(): void {
    this.send(`hello:${this.id}`);
  }

  leave(): void {
    this.send(`bye:${this.id}`);
  }

  /** Resolves once this instance and every one it knows have acked a marker sent now, or after `ms`. */
  async settle(ms: number): Promise<void> {
    const nonce = randomUUID();
    const missing = new Set([this.id, ...this.peers]);
    let timer: NodeJS.Timeout | undefined;
    const acked = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      this.waiting.set(nonce, (from) => {
        missing.delete(from);
        if (missing.size === 0) resolve();
      });
    });
    try {
      await this.handle.query("select pg_notify($1, $2)", [
        this.channel,
        `${SYNC_PREFIX}mark:${nonce}:${this.id}`,
      ]);
      await acked;
      for (const silent of missing) this.peers.delete(silent);
    } catch {
      // The database went away after the change committed: the change stands; nothing to wait for.
    } finally {
      clearTimeout(timer);
      this.waiting.delete(nonce);
    }
  }

  private send(message: string): void {
    this.handle.query("select pg_notify($1, $2)", [this.channel, `${SYNC_PREFIX}${message}`]).catch(() => {
      // Unreachable: an instance that missed a hello learns of this one from its next ack.
    });
  }
}
