import { Redis } from "ioredis";
import { SHARED_MAX_BATCH } from "./rate-limit-postgres.ts";
import type { BucketStore, Draw, Quota } from "./rate-limiter.ts";

const PREFIX = "fleet:ratelimit:";

/**
 * A draw, atomic in Redis: refill by Redis's own clock (every instance the same), hand out what the bucket
 * has up to the ask, and let the key expire when the bucket would be full again (a full bucket is no key).
 * Tokens travel as strings: Redis truncates Lua numbers it returns to integers.
 */
const DRAW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = limit
if held[1] then
  tokens = math.min(limit, tonumber(held[1]) + math.max(0, now - tonumber(held[2])) * limit / window)
end
local granted = math.min(want, math.floor(tokens))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((limit - tokens) * window / limit) + 1)
return {granted, tostring(tokens)}`;

const GIVE_BACK = `
local held = redis.call('HGET', KEYS[1], 'tokens')
if held then
  redis.call('HSET', KEYS[1], 'tokens', tostring(math.min(tonumber(ARGV[1]), tonumber(held) + tonumber(ARGV[2]))))
end
return 0`;

interface ScriptedRedis extends Redis {
  fleetDraw(key: string, limit: number, windowMs: number, want: number): Promise<[number, string]>;
  fleetGiveBack(key: string, limit: number, tokens: number): Promise<number>;
}

/** Buckets in Redis (REDIS_URL), shared by every instance that names the same server. */
export class RedisBucketStore implements BucketStore {
  readonly maxBatch = SHARED_MAX_BATCH;
  readonly #redis: ScriptedRedis;

  private constructor(redis: Redis) {
    redis.defineCommand("fleetDraw", { numberOfKeys: 1, lua: DRAW });
    redis.defineCommand("fleetGiveBack", { numberOfKeys: 1, lua: GIVE_BACK });
    this.#redis = redis as ScriptedRedis;
  }

  /**
   * Connects before the API serves, so the first draws are counted. Redis out of reach at start does not
   * stop the API: the limiter admits on its own count while ioredis reconnects (`onError` hears it).
   */
  static async open(url: string, onError: (error: unknown) => void): Promise<RedisBucketStore> {
    const redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
      connectTimeout: 2_000,
    });
    let reported = false;
    redis.on("error", (error) => {
      // ioredis retries on its own; one line per outage is enough.
      if (!reported) onError(error);
      reported = true;
    });
    redis.on("ready", () => {
      reported = false;
    });
    await redis.connect().catch(onError);
    return new RedisBucketStore(redis);
  }

  async draw(key: string, quota: Quota, want: number): Promise<Draw> {
    const [granted, tokens] = await this.#redis.fleetDraw(PREFIX + key, quota.limit, quota.windowMs, want);
    return { granted: Number(granted), tokens: Number(tokens) };
  }

  async giveBack(key: string, quota: Quota, tokens: number): Promise<void> {
    await this.#redis.fleetGiveBack(PREFIX + key, quota.limit, tokens);
  }

  /** Redis expires a bucket as it fills up: nothing to sweep. */
  sweep(): void {}

  async close(): Promise<void> {
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
