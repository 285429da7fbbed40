import type { EventEmitter } from "node:events";
import type { DatabaseHandle } from "@fleet/db";

export const GATE_CHANNEL = "approval_gates";

/**
 * Wakes runners waiting on a gate's answer. The deciding transaction sends `NOTIFY approval_gates,
 * '<gate id>'`, which PostgreSQL delivers at commit to every instance, this one included; waiters are
 * keyed by gate, so an answer wakes only the requests waiting on that gate.
 */
export class GateSignal {
  private waiters = new Map<string, Set<() => void>>();
  private unlisten: (() => Promise<void>) | null = null;
  #draining = false;

  async start(handle: DatabaseHandle): Promise<void> {
    this.unlisten = await handle.listen(
      GATE_CHANNEL,
      (gateId) => this.wake(gateId),
      () => this.wakeAll(), // after a reconnect, any gate may have been answered meanwhile
    );
  }

  async stop(): Promise<void> {
    await this.unlisten?.().catch(() => {});
    this.unlisten = null;
    this.wakeAll();
  }

  /** The instance is shutting down: every waiter is woken now (see `WorkSignal.drain`). */
  drain(): void {
    this.#draining = true;
    this.wakeAll();
  }

  /** While draining, a waiting read answers the gate as it stands instead of waiting. */
  get draining(): boolean {
    return this.#draining;
  }

  /**
   * A wait for gate `gateId` to change: it ends when an answer arrives, `ms` pass, `connection` closes,
   * or `cancel` is called. Take it before reading the gate, so an answer committed between the read and
   * the wait still ends it.
   */
  waiter(gateId: string, ms: number, connection: EventEmitter | null = null) {
    let done = () => {};
    const promise = new Promise<void>((resolve) => {
      const set = this.waiters.get(gateId) ?? new Set();
      this.waiters.set(gateId, set);
      done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0 && this.waiters.get(gateId) === set) this.waiters.delete(gateId);
        connection?.off("close", done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(ms, 0));
      set.add(done);
      connection?.once("close", done);
    });
    return { promise, cancel: () => done() };
  }

  /** Wakes this instance's waiters on `gateId` now (the NOTIFY still tells the others). */
  wake(gateId: string): void {
    for (const waiter of [...(this.waiters.get(gateId) ?? [])]) waiter();
  }

  private wakeAll(): void {
    for (const set of [...this.waiters.values()]) for (const waiter of [...set]) waiter();
  }
}
