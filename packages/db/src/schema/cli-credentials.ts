import { bigint, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";
import { users } from "./users.ts";

/**
 * Command-line credentials: session JWTs of kind `cli` carry this row's id (`cid`), and authentication
 * refuses one whose row is revoked or gone. The token itself is never stored.
 */
export const cliCredentials = pgTable(
  "cli_credentials",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** What the CLI said it is and where it runs (device sign-in), or `fleetctl session`. */
    clientName: text("client_name").notNull(),
    clientHost: text("client_host"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
    /** Set once; the credential authenticates exactly while this is null (and it has not expired). */
    revokedAt: bigint("revoked_at", { mode: "number" }),
    /**
     * The credential whose holder approved the device sign-in this credential came from: `session:<id>`
     * (a console session) or `cli:<id>`; revoking it revokes this one. Null: none (fleetctl, older rows).
     */
    approvedVia: text("approved_via"),
  },
  (t) => [
    index("cli_credentials_person_idx").on(t.tenantId, t.userId, t.createdAt, t.id),
    index("cli_credentials_approved_via_idx").on(t.approvedVia),
  ],
);
