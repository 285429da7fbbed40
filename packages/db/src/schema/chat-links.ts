import { bigint, foreignKey, index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { connectors } from "./connectors.ts";
import { memberships } from "./memberships.ts";
import { tenants } from "./tenants.ts";

/**
 * A chat user linked to a member of the tenant: their clicks on a gate's buttons act as that member
 * (scopes and the gate's rule checked as in the inbox). Keyed by the vendor's (team, user) as the click
 * names them; the membership's foreign key removes the link with the membership, so a removed member's
 * chat user answers as nobody, and a later invitation brings no link back.
 */
export const chatLinks = pgTable(
  "chat_links",
  {
    id: uuid("id").primaryKey(),
    tenantId: uuid("tenant_id").notNull(),
    userId: uuid("user_id").notNull(),
    provider: text("provider").notNull(),
    /** The connected team the chat user belongs to (the click's `user.team_id`, the connector's team). */
    teamId: text("team_id").notNull(),
    chatUserId: text("chat_user_id").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    foreignKey({
      name: "chat_links_membership_fk",
      columns: [t.tenantId, t.userId],
      foreignColumns: [memberships.tenantId, memberships.userId],
    }).onDelete("cascade"),
    uniqueIndex("chat_links_chat_user_key").on(t.tenantId, t.provider, t.teamId, t.chatUserId),
    index("chat_links_member_idx").on(t.tenantId, t.userId),
  ],
);

/**
 * The one-time links offered to an unlinked chat user, by hash only: the token itself went to the chat
 * user (ephemerally) and is spent by the member who opens it signed in (the row is deleted). One live
 * token per chat user of a connector: a newer one replaces it. Ten minutes.
 */
export const chatLinkTokens = pgTable(
  "chat_link_tokens",
  {
    /** Hex SHA-256 of the whole signed token. */
    tokenHash: text("token_hash").primaryKey(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    connectorId: uuid("connector_id")
      .notNull()
      .references(() => connectors.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    teamId: text("team_id").notNull(),
    chatUserId: text("chat_user_id").notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("chat_link_tokens_chat_user_key").on(t.connectorId, t.chatUserId),
    index("chat_link_tokens_expiry_idx").on(t.expiresAt),
  ],
);
