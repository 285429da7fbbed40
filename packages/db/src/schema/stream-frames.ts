import { bigint, bigserial, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";

/**
 * The live tail's replay window (docs/decisions/live-streams.md, "Live-tail streams"): every frame published to a workspace's
 * stream, kept a few minutes so a client that reconnects with `Last-Event-ID` gets what it missed, and
 * so a frame too big for a NOTIFY payload reaches the other instances by its id. Not business state: a
 * pruned or lost row only makes a resuming client refetch.
 */
export const streamFrames = pgTable(
  "stream_frames",
  {
    /**
     * The frame's `id:` on the stream. Taken under the publishers' transaction lock, so ids commit in
     * increasing order and "after id N" is exact for a resume.
     */
    id: bigserial("id", { mode: "number" }).primaryKey(),
    workspaceId: uuid("workspace_id").notNull(),
    fleetId: uuid("fleet_id").notNull(),
    /** Null for a gate not raised by a run (an integration grant's). */
    eventId: uuid("event_id"),
    leaseId: uuid("lease_id"),
    /** `event_received`, `event_complete`, `gate_opened`, `gate_resolved`, `chunk`, `tool_call_*`. */
    kind: text("kind").notNull(),
    /** The frame's payload as the stream sends it. */
    payload: jsonb("payload").notNull(),
    /** Epoch ms the frame was published. */
    at: bigint("at", { mode: "number" }).notNull(),
  },
  (t) => [
    index("stream_frames_workspace_idx").on(t.workspaceId, t.id),
    index("stream_frames_at_idx").on(t.at),
  ],
);
