import { bigint, index, pgTable, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";
import { users } from "./users.ts";

/**
 * Console sessions ended before their expiry (signed out or revoked). A console session token carries
 * its id (`sid`); authentication refuses one listed here. A row may go once the token has expired.
 */
export const sessionRevocations = pgTable(
  "session_revocations",
  {
    /** The session token's `sid`. */
    sessionId: uuid("session_id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    revokedAt: bigint("revoked_at", { mode: "number" }).notNull(),
    /** The token's own expiry: past it the row no longer matters. */
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("session_revocations_expires_idx").on(t.expiresAt)],
);
