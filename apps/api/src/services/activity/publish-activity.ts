import type { ActivityFrame } from "@fleet/contracts";
import type { ServiceContext } from "../context.ts";
import { fencedWrite } from "../leases/leasing.ts";

/** Hands the frames to the live tail; only the lease's current holder may publish. */
export async function publishActivity(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; frames: ActivityFrame[] },
) {
  const lease = await fencedWrite(
    ctx,
    runnerId,
    { ...input, fencing_token: null },
    async (_tx, held) => held,
  );
  ctx.activity.publish(
    { workspaceId: lease.workspaceId, fleetId: lease.fleetId, eventId: lease.eventId, leaseId: lease.id },
    input.frames,
    ctx.now(),
  );
  if (ctx.tracing) {
    const run = { leaseId: lease.id, eventId: lease.eventId };
    for (const frame of input.frames)
      if ("tool_call_completed" in frame && frame.tool_call_completed !== undefined)
        ctx.tracing.toolCall(run, frame.tool_call_completed.name, frame.tool_call_completed.ms, ctx.now());
  }
  return { ok: true as const };
}
