/**
 * Token buckets shared across API instances without a round trip per request (docs/decisions/limits.md, "Rate
 * limits"). The shared store holds each bucket; an instance draws tokens from it in batches
 * and spends them locally, so the common request costs a map lookup. Tokens an instance drew and did not
 * spend go back to the store once the bucket has been idle for a sweep.
 */

/** A bucket's size: up to `limit` requests at once, refilling `limit` every `windowMs`. */
export interface Quota {
  limit: number;
  windowMs: number;
}

/** What a draw from the shared store answers. */
export interface Draw {
  /** Tokens handed to this instance, at most what it asked for. */
  granted: number;
  /** Tokens the shared bucket has left after the draw (fractional). */
  tokens: number;
}

/** Where buckets are kept: in process, or shared by every instance (PostgreSQL, Redis). */
export interface BucketStore {
  /**
   * The most tokens one draw may take. 1 for the in-process store (a draw costs nothing, so the count is
   * exact); more for a shared store, trading a bounded overshoot for far fewer round trips.
   */
  readonly maxBatch: number;
  draw(key: string, quota: Quota, want: number): Draw | Promise<Draw>;
  /** Returns unspent tokens to a bucket (never past its limit). */
  giveBack(key: string, quota: Quota, tokens: number): Promise<void> | void;
  /** Forgets buckets that have refilled: the same as no bucket. */
  sweep(): Promise<void> | void;
  close(): Promise<void> | void;
}

/** One bucket as this instance sees it. */
export class Bucket {
  /** Tokens drawn from the store and not yet spent. */
  allowance = 0;
  /** The store's tokens after this instance's last draw: the rest of the quota, as far as it knows. */
  shared: number;
  /** Until then the store had no whole token: refuse without asking it. */
  blockedUntil = 0;
  /** Refill ms per token. */
  msPerToken: number;
  touchedAt = 0;
  drawing: Promise<void> | null = null;

  constructor(
    readonly key: string,
    public quota: Quota,
  ) {
    this.shared = quota.limit;
    this.msPerToken = quota.windowMs / quota.limit;
  }

  /** Requests left, as far as this instance knows (RateLimit-Remaining). */
  remaining(): number {
    return Math.max(0, Math.min(this.quota.limit, Math.floor(this.allowance + this.shared)));
  }

  /** Whole seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds(): number {
    return Math.ceil(((this.quota.limit - this.remaining()) * this.msPerToken) / 1000);
  }

  /** RateLimit-Limit, -Remaining and -Reset (seconds until the bucket is full) onto a refusal's headers. */
  writeHeaders(headers: Record<string, unknown>): void {
    headers["ratelimit-limit"] = String(this.quota.limit);
    headers["ratelimit-remaining"] = String(this.remaining());
    headers["ratelimit-reset"] = String(this.resetSeconds());
  }

  /**
   * The same headers onto an admitted call's answer, once half the bucket or more is spent; none while
   * more than half is left (docs/decisions/limits.md, "Rate limits": three headers on every answer cost more
   * than the rest of the limiter, and a client far from its limit has nothing to pace).
   */
  writeAdmittedHeaders(headers: Record<string, unknown>): void {
    if (2 * this.remaining() > this.quota.limit) return;
    this.writeHeaders(headers);
  }

  /** Whole seconds, at least 1, until a request may pass (Retry-After). */
  retryAfterSeconds(now: number): number {
    return Math.max(1, Math.ceil((this.blockedUntil - now) / 1000));
  }
}

/** The longest a request waits on a draw from the shared store before it passes without one. */
const DRAW_DEADLINE_MS = 500;

/** How long a bucket stays in memory unused before its unspent tokens go back to the store. */
const IDLE_MS = 2_000;

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #sweeper: NodeJS.Timeout;
  /** Draws that failed since the last sweep: the first is reported, the rest counted. */
  #failures = 0;

  constructor(
    private readonly store: BucketStore,
    readonly now: () => number,
    /** Receives a store that could not be reached, at most once a sweep. */
    private readonly onStoreError: (error: unknown) => void,
    sweepEveryMs = 1_000,
  ) {
    this.#sweeper = setInterval(() => void this.sweep(), sweepEveryMs);
    this.#sweeper.unref();
  }

  /**
   * Spends one token of `key`'s bucket. Answers the bucket when the request may pass, `false` (read the
   * bucket with `bucket()`) when it may not; synchronously while the instance holds tokens, or the store
   * answers synchronously.
   */
  take(key: string, quota: Quota): Bucket | false | Promise<Bucket | false> {
    const now = this.now();
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      bucket = new Bucket(key, quota);
      this.#buckets.set(key, bucket);
    } else if (bucket.quota.limit !== quota.limit || bucket.quota.windowMs !== quota.windowMs) {
      bucket.quota = quota;
      bucket.msPerToken = quota.windowMs / quota.limit;
    }
    bucket.touchedAt = now;
    if (bucket.allowance >= 1) {
      bucket.allowance -= 1;
      // Draw the next batch before this one runs out, so a steady stream never waits on the store.
      if (bucket.drawing === null && this.store.maxBatch > 1 && bucket.allowance < this.#batch(bucket) / 2)
        this.#draw(bucket);
      return bucket;
    }
    // A draw is on its way and the store had more than a batch at its last answer: spend on credit (at
    // most a batch) rather than hold the request on the store's round trip; the draw settles the debt.
    const batch = this.#batch(bucket);
    if (bucket.drawing !== null && batch > 1 && bucket.allowance > -batch && bucket.shared >= batch) {
      bucket.allowance -= 1;
      return bucket;
    }
    if (now < bucket.blockedUntil) return false;
    if (bucket.drawing === null && this.#draw(bucket) === undefined) {
      if (bucket.allowance >= 1) {
        bucket.allowance -= 1;
        return bucket;
      }
      if (this.now() < bucket.blockedUntil) return false;
    }
    return this.#takeAfterDraw(bucket);
  }

  /** Gives back a token `take` spent for a request that another bucket refused. */
  refund(bucket: Bucket): void {
    bucket.allowance += 1;
  }

  bucket(key: string): Bucket | undefined {
    return this.#buckets.get(key);
  }

  async #takeAfterDraw(bucket: Bucket): Promise<Bucket | false> {
    for (;;) {
      if (bucket.allowance >= 1) {
        bucket.allowance -= 1;
        return bucket;
      }
      if (this.now() < bucket.blockedUntil) return false;
      const drawing = bucket.drawing ?? this.#draw(bucket);
      if (drawing === undefined) continue;
      // A store slower than this (a database in trouble) does not hold the request: it passes on this
      // instance's say, and the draw still settles into the bucket when it lands.
      let timer: NodeJS.Timeout | undefined;
      const late = await Promise.race([
        drawing.then(() => false),
        new Promise<true>((resolve) => {
          timer = setTimeout(() => resolve(true), DRAW_DEADLINE_MS);
        }),
      ]);
      clearTimeout(timer);
      if (late) return bucket;
    }
  }

  #batch(bucket: Bucket): number {
    // A batch held and a batch on credit stay within 5 % of the limit per instance.
    return Math.max(1, Math.min(this.store.maxBatch, Math.floor(bucket.quota.limit / 40)));
  }

  /** Draws a batch into the bucket: settled on return (undefined) or when the promise answered lands. */
  #draw(bucket: Bucket): Promise<void> | undefined {
    let answer: Draw | Promise<Draw>;
    try {
      answer = this.store.draw(bucket.key, bucket.quota, this.#batch(bucket));
    } catch (error) {
      this.#failed(bucket, error);
      return undefined;
    }
    if (!(answer instanceof Promise)) {
      this.#settle(bucket, answer);
      return undefined;
    }
    const drawing = answer.then(
      (draw) => {
        bucket.drawing = null;
        this.#settle(bucket, draw);
      },
      (error: unknown) => {
        bucket.drawing = null;
        this.#failed(bucket, error);
      },
    );
    bucket.drawing = drawing;
    return drawing;
  }

  #settle(bucket: Bucket, draw: Draw): void {
    bucket.allowance += draw.granted;
    bucket.shared = draw.tokens;
    // Nothing left in the store: refuse locally until a whole token has refilled.
    if (draw.tokens < 1) bucket.blockedUntil = this.now() + Math.ceil((1 - draw.tokens) * bucket.msPerToken);
  }

  /** A store out of reach does not refuse the service: the instance admits on its own until it answers. */
  #failed(bucket: Bucket, error: unknown): void {
    bucket.allowance += this.#batch(bucket);
    if (++this.#failures === 1) this.onStoreError(error);
  }

  /** Returns idle buckets' unspent tokens to the store and forgets them; lets the store forget full ones. */
  async sweep(): Promise<void> {
    this.#failures = 0;
    const idleSince = this.now() - IDLE_MS;
    const returns: (Promise<void> | void)[] = [];
    for (const [key, bucket] of this.#buckets) {
      if (bucket.touchedAt > idleSince || bucket.drawing !== null) continue;
      this.#buckets.delete(key);
      const unspent = Math.floor(bucket.allowance);
      if (unspent > 0) returns.push(this.store.giveBack(key, bucket.quota, unspent));
    }
    try {
      await Promise.all(returns);
      await this.store.sweep();
    } catch (error) {
      this.onStoreError(error);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await this.store.close();
  }
}

/** The in-process store: the embedded database's default, exact for its one instance. */
export class MemoryBucketStore implements BucketStore {
  readonly maxBatch = 1;
  readonly #buckets = new Map<string, { tokens: number; at: number; fullAt: number }>();

  constructor(private readonly now: () => number) {}

  draw(key: string, quota: Quota, want: number): Draw {
    const now = this.now();
    const held = this.#buckets.get(key);
    const refilled =
      held === undefined
        ? quota.limit
        : Math.min(quota.limit, held.tokens + ((now - held.at) * quota.limit) / quota.windowMs);
    const granted = Math.max(0, Math.min(want, Math.floor(refilled)));
    const tokens = refilled - granted;
    const fullAt = now + Math.ceil(((quota.limit - tokens) * quota.windowMs) / quota.limit);
    if (held === undefined) this.#buckets.set(key, { tokens, at: now, fullAt });
    else {
      held.tokens = tokens;
      held.at = now;
      held.fullAt = fullAt;
    }
    return { granted, tokens };
  }

  giveBack(key: string, quota: Quota, tokens: number): void {
    const held = this.#buckets.get(key);
    if (held !== undefined) held.tokens = Math.min(quota.limit, held.tokens + tokens);
  }

  sweep(): void {
    const now = this.now();
    for (const [key, held] of this.#buckets) if (held.fullAt <= now) this.#buckets.delete(key);
  }

  close(): void {
    this.#buckets.clear();
  }
}
