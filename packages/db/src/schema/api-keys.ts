import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { fleets } from "./fleets.ts";
import { tenants } from "./tenants.ts";
import { users } from "./users.ts";

/**
 * Tenant API keys (`agt_t…`) and fleet keys (`agt_a…`, `fleet_id` set: a key bound to one fleet). The
 * plaintext is never stored: only its SHA-256.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** The person whose current scopes the key acts with. */
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    keyName: text("key_name").notNull(),
    description: text("description").notNull(),
    /** Hex SHA-256 of the raw key; the lookup index for authentication. */
    keyHash: text("key_hash").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    /** Written at most once a minute per key, so authentication stays a read. */
    lastUsedAt: bigint("last_used_at", { mode: "number" }),
    /** Set once; a key is active exactly while this is null. */
    revokedAt: bigint("revoked_at", { mode: "number" }),
    /**
     * This key's own request quota per rate-limit window, in place of the instance's default for
     * credentials (FLEET_RATE_LIMIT_CREDENTIAL); null takes the default. Set at mint.
     */
    rateLimit: integer("rate_limit"),
    /** The key's first characters (`agt_t` and 8 more), shown to tell keys apart; null for older keys. */
    keyPrefix: text("key_prefix"),
    /**
     * The scopes chosen at mint, a subset of the minter's; the key acts with those its creator still holds.
     * Null: all of its creator's current scopes.
     */
    scopes: text("scopes").array(),
    /** When the key stops authenticating (401 UZ-APIKEY-007); null: it does not expire. */
    expiresAt: bigint("expires_at", { mode: "number" }),
    /**
     * Hex SHA-256 of the secret a rotation replaced, still accepted until `previous_expires_at` (the grace
     * period the rotation chose); null when there is none. Revoking the key ends it too.
     */
    previousKeyHash: text("previous_key_hash"),
    /** When the previous secret stops authenticating; set exactly when `previous_key_hash` is. */
    previousExpiresAt: bigint("previous_expires_at", { mode: "number" }),
    /**
     * Set for a fleet key: the one fleet it acts as (send its messages, read its events and live tail,
     * request its grants). Deleting the fleet deletes its keys.
     */
    fleetId: uuid("fleet_id").references(() => fleets.id, { onDelete: "cascade" }),
    /** When the key's secret was last rotated; null: never. */
    rotatedAt: bigint("rotated_at", { mode: "number" }),
  },
  (t) => [
    uniqueIndex("api_keys_hash_key").on(t.keyHash),
    uniqueIndex("api_keys_previous_hash_key")
      .on(t.previousKeyHash)
      .where(sql`${t.previousKeyHash} is not null`),
    index("api_keys_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("api_keys_tenant_name_idx").on(t.tenantId, t.keyName, t.id),
    index("api_keys_fleet_idx").on(t.fleetId, t.createdAt, t.id),
    check("api_keys_rate_limit", sql`${t.rateLimit} between 1 and 1000000`),
    check("api_keys_previous_secret", sql`(${t.previousKeyHash} is null) = (${t.previousExpiresAt} is null)`),
  ],
);
