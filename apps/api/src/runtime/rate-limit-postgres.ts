import type { DatabaseHandle } from "@fleet/db";
import type { BucketStore, Draw, Quota } from "./rate-limiter.ts";

/** The most tokens one draw takes: at most this many admitted past a quota per instance (and window). */
export const SHARED_MAX_BATCH = 1_000;

/** The database's clock in epoch ms: every instance refills by the same clock. */
const NOW = "(extract(epoch from clock_timestamp()) * 1000)::bigint";
/** The bucket's tokens refilled up to now; `b` is the row, `$2` the limit, `$3` the window in ms. */
const REFILLED = `least($2::float8, b.tokens + greatest(0, ${NOW} - b.updated_at) * $2::float8 / $3::float8)`;
const GRANTED = `least($4::int, floor(${REFILLED}))::int`;

/**
 * One statement per draw: a new bucket starts full; an existing one refills by the time elapsed and hands
 * out what it can, recording the grant in the row so RETURNING can read it back.
 */
const DRAW = `
insert into rate_limit_buckets as b (key, tokens, granted, updated_at, full_at)
select $1, $2::float8 - g, g, n, n + ceil(g * $3::float8 / $2::float8)::bigint
from (select least($4::int, $2::int) as g, ${NOW} as n) as fresh
on conflict (key) do update set
  granted = ${GRANTED},
  tokens = ${REFILLED} - ${GRANTED},
  updated_at = ${NOW},
  full_at = ${NOW} + ceil(($2::float8 - (${REFILLED} - ${GRANTED})) * $3::float8 / $2::float8)::bigint
returning tokens, granted`;

const GIVE_BACK = `update rate_limit_buckets set tokens = least($2::float8, tokens + $3::float8) where key = $1`;
const SWEEP = `delete from rate_limit_buckets where full_at < ${NOW}`;

/** Buckets in a PostgreSQL table every instance on the database draws from. */
export class PostgresBucketStore implements BucketStore {
  readonly maxBatch = SHARED_MAX_BATCH;
  #sweeps = 0;

  constructor(private readonly database: DatabaseHandle) {}

  async draw(key: string, quota: Quota, want: number): Promise<Draw> {
    const [row] = await this.database.query<{ tokens: number; granted: number }>(DRAW, [
      key,
      quota.limit,
      quota.windowMs,
      want,
    ]);
    return { granted: Number(row!.granted), tokens: Number(row!.tokens) };
  }

  async giveBack(key: string, quota: Quota, tokens: number): Promise<void> {
    await this.database.query(GIVE_BACK, [key, quota.limit, tokens]);
  }

  async sweep(): Promise<void> {
    // Every instance sweeps; one delete a minute each keeps the table to the buckets in use.
    if (++this.#sweeps % 60 === 0) await this.database.query(SWEEP);
  }

  close(): void {}
}
