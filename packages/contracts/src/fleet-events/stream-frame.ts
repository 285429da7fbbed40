import { z } from "zod";
import { epochMs } from "../common.ts";
import { streamFrameKinds } from "./values.ts";

export { type StreamFrameKind, streamFrameKinds } from "./values.ts";

const kindList = new RegExp(`^(${streamFrameKinds.join("|")})(,(${streamFrameKinds.join("|")}))*$`);

/** What a stream takes: the kinds it listens for, and where a client resumes when it cannot set headers. */
export const streamQuery = {
  kinds: z
    .string()
    .max(512)
    .regex(kindList, { error: `kinds lists frame kinds, comma-separated, of ${streamFrameKinds.join(", ")}` })
    .optional(),
  last_event_id: z
    .string()
    .regex(/^\d{1,15}$/, { error: "last_event_id is the decimal id of a frame the stream sent" })
    .optional(),
};

/**
 * The `data:` of every frame a stream sends under `event: <kind>` with `id: <frame_id>` (docs/decisions/live-streams.md,
 * "Live-tail streams"). Before them, `event: hello` carries `{subscription_id, replay_window, last_frame_id}`.
 * A frame of a happening that has an outgoing webhook event (`event_received`, `event_complete`,
 * `gate_opened`, `gate_resolved`, a named percent's `budget_alert`) carries its id as `payload.webhook_id`
 * (and so at the top level too): a delivery's `webhook-id` header and payload `id`, so a client reading
 * both deduplicates across the two (docs/decisions/webhooks.md, "The event's id on the live tail").
 */
export const streamFrame = z
  .object({
    frame_id: z.string(),
    kind: z.enum(streamFrameKinds),
    workspace_id: z.string(),
    fleet_id: z.string(),
    event_id: z.string().nullable(),
    lease_id: z.string().nullable(),
    at: z.number().int(),
    payload: z.record(z.string(), z.unknown()),
  })
  // The payload's fields again, beside the frame's own (which win a clash): where older clients read them.
  .catchall(z.unknown())
  .meta({ id: "StreamFrame" });

/** One frame a run published, as its live tail sent it, with the lease that published it. */
export const runFrame = z
  .object({
    frame_id: z.string(),
    /** The lease that published it (a run leased again has frames of several). */
    lease_id: z.string(),
    kind: z.enum(streamFrameKinds),
    at: epochMs,
    payload: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "RunFrame" });

/** A page of kept run frames, oldest first. */
export const runFramePage = z
  .object({
    items: z.array(runFrame),
    next_cursor: z.string().nullable(),
    /** How long frames are kept, so a reader can say why an old run shows none. */
    retention_hours: z.number().int(),
  })
  .meta({ id: "RunFramePage" });
