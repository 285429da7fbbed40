import type { EventEmitter } from "node:events";
import type { DatabaseHandle } from "@fleet/db";

export const WORK_CHANNEL = "fleet_work";

/** How often, at most, one instance tells the others that work arrived. */
const NOTIFY_COALESCE_MS = 5;

/**
 * Wakes runners' long-polling acquires when work arrives. Work stored by this instance wakes its
 * waiters at once; other instances hear of it through a PostgreSQL NOTIFY, sent at most once per few
 * milliseconds however many events arrive, so a burst of messages does not serialise on the
 * notification queue.
 */
export class WorkSignal {
  private waiters = new Set<() => void>();
  private generation = 0;
  private notifyTimer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private handle: DatabaseHandle | null = null;
  #draining = false;

  async start(handle: DatabaseHandle): Promise<void> {
    this.handle = handle;
    this.unlisten = await handle.listen(
      WORK_CHANNEL,
      () => this.wake(),
      () => this.wake(), // after a reconnect, anything may have arrived meanwhile
    );
  }

  async stop(): Promise<void> {
    if (this.notifyTimer) clearTimeout(this.notifyTimer);
    this.notifyTimer = null;
    // The database may already be gone (shutdown order, or a test that closed it): nothing to undo then.
    await this.unlisten?.().catch(() => {});
    this.unlisten = null;
    this.wake();
  }

  /**
   * The instance is shutting down: every waiter is woken now, and waits from here on end at once, so a
   * runner's long poll is answered (and it asks again, through the load balancer, elsewhere) instead of
   * holding the shutdown for its whole wait.
   */
  drain(): void {
    this.#draining = true;
    this.wake();
  }

  get draining(): boolean {
    return this.#draining;
  }

  /** A ticket to wait from: a wake after it was taken is not missed. */
  ticket(): number {
    return this.generation;
  }

  /**
   * Waits until work may have arrived since `ticket`, `ms` pass, or `connection` (the waiting caller's)
   * closes: a caller that went away is not kept waiting for work it cannot take.
   */
  wait(ticket: number, ms: number, connection: EventEmitter | null = null): Promise<void> {
    if (this.generation !== ticket || ms <= 0 || this.#draining) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        connection?.off("close", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      connection?.once("close", done);
    });
  }

  /** Work arrived here: wake this instance's waiters now and tell the other instances soon. */
  announce(): void {
    this.wake();
    if (this.notifyTimer !== null || this.handle === null) return;
    const handle = this.handle;
    this.notifyTimer = setTimeout(() => {
      this.notifyTimer = null;
      handle.query("select pg_notify($1, '')", [WORK_CHANNEL]).catch(() => {
        // The other instances' waiters re-poll on their own within seconds.
      });
    }, NOTIFY_COALESCE_MS);
  }

  private wake(): void {
    this.generation++;
    for (const waiter of [...this.waiters]) waiter();
  }
}
