import { bigint, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";

/**
 * The frames a run published (docs/decisions/live-streams.md, "Run frames in the lease review"): a copy of each
 * live-tail frame that carries a lease id, written in the same transaction as its `stream_frames` row,
 * kept for days so a lease review can show what the run did after the replay window has dropped it.
 * Only the first frames of a lease are kept (the hub's cap), and rows older than the retention are
 * pruned; like the replay window it is a record, not business state.
 */
export const runFrames = pgTable(
  "run_frames",
  {
    /** The frame's id on the live tail (`stream_frames.id`): one order for both. */
    id: bigint("id", { mode: "number" }).primaryKey(),
    leaseId: uuid("lease_id").notNull(),
    workspaceId: uuid("workspace_id").notNull(),
    fleetId: uuid("fleet_id").notNull(),
    /** `chunk`, `tool_call_started`, `tool_call_progress`, `tool_call_completed`, or a gate frame. */
    kind: text("kind").notNull(),
    /** The frame's payload as the stream sent it. */
    payload: jsonb("payload").notNull(),
    /** Epoch ms the frame was published. */
    at: bigint("at", { mode: "number" }).notNull(),
  },
  (t) => [index("run_frames_lease_idx").on(t.leaseId, t.id), index("run_frames_at_idx").on(t.at)],
);
