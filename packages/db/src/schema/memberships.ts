import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";
import { users } from "./users.ts";

/** A person's place in a tenant: their role and the scopes they hold there. */
export const memberships = pgTable(
  "memberships",
  {
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    /** Scope names held in this tenant; API keys the person created act with these, read at request time. */
    scopes: text("scopes").array().notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    /** Who invited the person (`POST …/members`); null when they joined otherwise (first run, fleetctl). */
    invitedBy: uuid("invited_by"),
    /**
     * The root of the invitation chain the person joined through: their inviter's family, or the inviter
     * when the inviter joined otherwise. Null: the person is a family of their own. A quorum counts one
     * approval per family (docs/decisions/approvals.md, "Quorum means people").
     */
    familyId: uuid("family_id"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    index("memberships_user_idx").on(t.userId),
    check("memberships_role", sql`${t.role} in ('owner', 'member')`),
  ],
);
