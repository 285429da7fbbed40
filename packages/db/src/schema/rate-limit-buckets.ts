import { sql } from "drizzle-orm";
import { bigint, check, doublePrecision, index, integer, pgTable, text } from "drizzle-orm/pg-core";

/**
 * The shared token buckets of the rate limiter on PostgreSQL (docs/decisions/limits.md, "Rate limits"): API
 * instances draw tokens from a row in batches and spend them locally, so two instances never double a
 * quota. A row whose bucket has refilled is the same as no row, and is deleted by a later sweep.
 */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    /** `k:<api key id>`, `u:<tenant id>:<user id>` or `w:<tenant id>:<workspace id>`. */
    key: text("key").primaryKey(),
    /** Tokens left at `updated_at`; fractional, since the bucket refills continuously. */
    tokens: doublePrecision("tokens").notNull(),
    /** Tokens the last draw handed out (read back by the drawing statement). */
    granted: integer("granted").notNull(),
    /** The database's clock (epoch ms) when `tokens` was computed. */
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    /** From this time on the bucket is full again: the row may be deleted. */
    fullAt: bigint("full_at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("rate_limit_buckets_full_idx").on(t.fullAt),
    check("rate_limit_buckets_granted", sql`${t.granted} >= 0`),
  ],
);
