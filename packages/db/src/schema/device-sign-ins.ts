import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";
import { users } from "./users.ts";

/**
 * Command-line sign-ins under way (docs/decisions/credentials-and-sign-in.md, "Device sign-in"): a device code the CLI polls with
 * and a user code the person enters on the console's /device page. Neither code is stored, only its
 * SHA-256. A row lives ten minutes; expired rows are deleted as new sign-ins start.
 */
export const deviceSignIns = pgTable(
  "device_sign_ins",
  {
    id: uuid("id").primaryKey(),
    /** Hex SHA-256 of the device code (the CLI's secret). */
    deviceCodeHash: text("device_code_hash").notNull(),
    /** Hex SHA-256 of the normalised user code (eight letters, no dash). */
    userCodeHash: text("user_code_hash").notNull(),
    /** What the CLI said it is and where it runs, shown to the person who approves. Not verified. */
    clientName: text("client_name").notNull(),
    clientHost: text("client_host"),
    /** `pending`, then `approved` or `denied`; `spent` once the CLI has taken its credential. */
    status: text("status").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    /** The least time between two polls; grows by 5 s on each `slow_down`. */
    intervalMs: integer("interval_ms").notNull(),
    lastPolledAt: bigint("last_polled_at", { mode: "number" }),
    /** Who answered, in which tenant, and the scopes the credential will carry: set on approval. */
    tenantId: uuid("tenant_id").references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    scopes: text("scopes").array(),
    answeredAt: bigint("answered_at", { mode: "number" }),
    /** The CLI credential the sign-in was spent for. */
    credentialId: uuid("credential_id"),
    /** The credential that approved it (`session:<id>`), copied onto the credential it is spent for. */
    approvedVia: text("approved_via"),
  },
  (t) => [
    uniqueIndex("device_sign_ins_device_code_key").on(t.deviceCodeHash),
    // Two sign-ins waiting at once never share a user code; answered ones may (the space is 20^8).
    uniqueIndex("device_sign_ins_pending_user_code_key")
      .on(t.userCodeHash)
      .where(sql`${t.status} = 'pending'`),
    index("device_sign_ins_user_code_idx").on(t.userCodeHash, t.createdAt),
    index("device_sign_ins_expires_idx").on(t.expiresAt),
    check("device_sign_ins_status", sql`${t.status} in ('pending', 'approved', 'denied', 'spent')`),
  ],
);

/**
 * Wrong user codes a person entered on /device in the current window (docs/decisions/credentials-and-sign-in.md, "Device
 * sign-in"): past the limit, entering codes is refused until the window ends.
 */
export const userCodeAttempts = pgTable("user_code_attempts", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  windowStartedAt: bigint("window_started_at", { mode: "number" }).notNull(),
  /** Attempts counted in the window: a code that was found is handed back. */
  failures: integer("failures").notNull(),
});
