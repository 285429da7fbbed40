import { sql } from "drizzle-orm";
import { bigint, check, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { approvalGates } from "./approval-gates.ts";

/**
 * One person's answer to a gate: the record its quorum is counted from. One row per (gate, person), so
 * an approval counts once however often, and through whichever credential, the person sends it.
 */
export const approvalVotes = pgTable(
  "approval_votes",
  {
    gateId: uuid("gate_id")
      .notNull()
      .references(() => approvalGates.id, { onDelete: "cascade" }),
    /** The person: a session's user, or the creator of the API key that answered. */
    voterId: uuid("voter_id").notNull(),
    /** The credential that answered: `user:<id>` or `api_key:<id>`. */
    principal: text("principal").notNull(),
    outcome: text("outcome").notNull(),
    reason: text("reason"),
    at: bigint("at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.gateId, t.voterId] }),
    check("approval_votes_outcome", sql`${t.outcome} in ('approved', 'denied')`),
  ],
);
