import type { ActivityFrame, StreamFrameKind } from "@fleet/contracts";
import { leaseMasker } from "../secrets/lease-masker.ts";
import { maskJson } from "../secrets/mask.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

/** The stream's name of each activity variant: the response chunk streams as `chunk`. */
const kinds: Record<string, StreamFrameKind> = {
  tool_call_started: "tool_call_started",
  tool_call_progress: "tool_call_progress",
  tool_call_completed: "tool_call_completed",
  fleet_response_chunk: "chunk",
};

/**
 * Hands the frames to the live tail, the fleet's declared secrets masked out of every string (the run's
 * cached masker: a fleet that declares none reads no secret); only the lease's current holder may publish.
 */
export async function publishActivity(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; frames: ActivityFrame[] },
) {
  const { lease, mask } = await fencedWrite(
    ctx,
    runnerId,
    { ...input, fencing_token: null },
    async (tx, held) => ({ lease: held, mask: await leaseMasker(ctx, tx, held) }),
  );
  const at = ctx.now();
  for (const frame of input.frames) {
    const [variant, payload] = Object.entries(frame)[0]!;
    ctx.streams.publish({
      workspaceId: lease.workspaceId,
      fleetId: lease.fleetId,
      eventId: lease.eventId,
      leaseId: lease.id,
      kind: kinds[variant]!,
      payload: maskJson(payload, mask) as Record<string, unknown>,
      at,
    });
  }
  if (ctx.tracing) {
    const run = { leaseId: lease.id, eventId: lease.eventId };
    for (const frame of input.frames)
      if ("tool_call_completed" in frame && frame.tool_call_completed !== undefined)
        ctx.tracing.toolCall(run, frame.tool_call_completed.name, frame.tool_call_completed.ms, ctx.now());
  }
  return { ok: true as const };
}
