import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { connectors } from "./connectors.ts";

/**
 * The chat outbox: messages the service posts to (or updates in) a connected chat provider, each retried
 * with backoff until delivered or out of attempts. `answer` rows wait for their fleet event's answer
 * (`awaiting`) and post it in the thread the question came from; `gate` rows post an approval gate with
 * buttons and, once the gate is answered, update that message with the outcome.
 */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id").primaryKey(),
    connectorId: uuid("connector_id")
      .notNull()
      .references(() => connectors.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** `answer`: the chat event whose answer this posts. */
    fleetEventId: uuid("fleet_event_id"),
    /** `gate`: the approval gate this message shows. */
    gateId: uuid("gate_id"),
    channelId: text("channel_id").notNull(),
    /** The thread to answer in (the question's `ts`); null posts at the channel's top level. */
    threadTs: text("thread_ts"),
    /** The posted message's `ts`, once posted: what an update addresses. */
    messageTs: text("message_ts"),
    /**
     * `awaiting` (an answer not yet given), `post`, `update` (work to do), `done`, `failed` (attempts
     * spent).
     */
    state: text("state").notNull(),
    /** What to post or update to: `{text, blocks?}`. */
    payload: jsonb("payload").$type<{ text: string; blocks?: unknown[] }>(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }).notNull(),
    lastError: text("last_error"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [
    /** The delivery loop's work: rows with something to do, soonest first. */
    index("chat_messages_due_idx").on(t.nextAttemptAt).where(sql`${t.state} in ('post', 'update')`),
    uniqueIndex("chat_messages_event_key").on(t.fleetEventId),
    uniqueIndex("chat_messages_gate_key").on(t.gateId, t.connectorId),
    check("chat_messages_kind", sql`${t.kind} in ('answer', 'gate')`),
    check("chat_messages_state", sql`${t.state} in ('awaiting', 'post', 'update', 'done', 'failed')`),
  ],
);
