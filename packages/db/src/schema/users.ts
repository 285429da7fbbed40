import { sql } from "drizzle-orm";
import { bigint, check, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey(),
    /** Stored lower-cased; one account per address. */
    email: text("email").notNull(),
    displayName: text("display_name"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    uniqueIndex("users_email_key").on(t.email),
    check("users_email_lower", sql`${t.email} = lower(${t.email})`),
  ],
);
