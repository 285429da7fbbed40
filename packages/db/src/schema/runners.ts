import { bigint, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** Execution hosts. Enrolment and policy arrive with the runners issue; the token class exists now. */
export const runners = pgTable(
  "runners",
  {
    id: uuid("id").primaryKey(),
    hostId: text("host_id").notNull(),
    /** Hex SHA-256 of the runner token (`agt_r…`). */
    tokenHash: text("token_hash").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    revokedAt: bigint("revoked_at", { mode: "number" }),
  },
  (t) => [uniqueIndex("runners_token_hash_key").on(t.tokenHash)],
);
