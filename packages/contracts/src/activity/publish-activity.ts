import { z } from "zod";
import { leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";

const toolName = z.string().min(1).max(200);
/** The model's id of one tool call, tying its started, progress and completed frames together. */
const callId = z.string().min(1).max(200).optional();
/** A bounded piece of a tool's output, for people watching the run. */
const outputPiece = z
  .string()
  .max(4 * 1024)
  .optional();

/**
 * The four frame variants; each is an object with exactly one key, and unknown fields are refused.
 * `call_id`, and a completed call's `status` and output head and tail, are optional (an executor that
 * calls no model has no call ids).
 */
export const activityFrame = z.union([
  z.strictObject({
    tool_call_started: z.strictObject({
      name: toolName,
      args_redacted: z.string().max(16 * 1024),
      call_id: callId,
    }),
  }),
  z.strictObject({ fleet_response_chunk: z.strictObject({ text: z.string().max(64 * 1024) }) }),
  z.strictObject({
    tool_call_completed: z.strictObject({
      name: toolName,
      ms: z.number().int().min(0),
      call_id: callId,
      /** `ok`, `error` (the tool failed), `refused` (not allowed: a host outside network_hosts), `denied` (a gate said no). */
      status: z.enum(["ok", "error", "refused", "denied"]).optional(),
      output_head: outputPiece,
      output_tail: outputPiece,
    }),
  }),
  z.strictObject({
    tool_call_progress: z.strictObject({
      name: toolName,
      elapsed_ms: z.number().int().min(0),
      call_id: callId,
    }),
  }),
]);
export type ActivityFrame = z.infer<typeof activityFrame>;

export const publishActivity = defineOperation({
  id: "activity.publish",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/activity",
  summary: "Publish live-tail activity frames",
  description:
    "202 means the frames are accepted for publication (best-effort); a batch that cannot be accepted is refused with a problem, never acknowledged with false. Only the lease's current holder may publish.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 202,
  errorStatuses: [409],
  params: leaseIdParam,
  body: {
    frames: z
      .array(activityFrame, { error: "frames must be an array of frames" })
      .min(1, { error: "frames must hold at least one frame" })
      .max(64, { error: "frames holds at most 64 frames" }),
  },
  output: z.object({ ok: z.literal(true) }).meta({ id: "ActivityAck" }),
});
