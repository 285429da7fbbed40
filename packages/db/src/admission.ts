/** A refusal for a call that found no free connection in time: the caller answers 503 and nothing was sent. */
export class PoolTimeoutError extends Error {
  readonly code = "POOL_TIMEOUT";
}

/**
 * Lets at most `size` database calls (a query, or a whole transaction) hold the pool at once, the rest
 * waiting here for at most `waitMs`. postgres.js itself queues a query that finds no free connection and
 * sends it whenever one frees up, with no deadline: with the database killed, queued queries waited out
 * its reconnection backoff for 11–21 s and were then stored after their client had been answered or had
 * given up. Here a call that waited too long is refused and dropped before it reaches the driver, so it
 * is never sent; and with no more calls than connections, a call handed to the driver never queues there.
 */
export class Admission {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly waitMs: number,
  ) {}

  /** Calls holding a connection now, and calls waiting for one (the metrics' pool gauges). */
  get use(): { size: number; active: number; waiting: number } {
    return { size: this.size, active: this.active, waiting: this.waiting.length };
  }

  run<T>(call: () => PromiseLike<T>): Promise<T> {
    if (this.active < this.size) return this.start(call);
    return new Promise<T>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        this.start(call).then(resolve, reject);
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(admit);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new PoolTimeoutError(`no database connection came free within ${this.waitMs} ms`));
      }, this.waitMs);
      this.waiting.push(admit);
    });
  }

  private start<T>(call: () => PromiseLike<T>): Promise<T> {
    this.active++;
    let running: Promise<T>;
    try {
      running = Promise.resolve(call());
    } catch (error) {
      running = Promise.reject(error);
    }
    const release = () => {
      this.active--;
      this.waiting.shift()?.();
    };
    running.then(release, release);
    return running;
  }
}
