import { eq, inArray, leases, runFrames } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { runFramePage } from "../shared/run-frame-page.ts";
import { readFleetEventRow } from "./event-view.ts";

/**
 * The frames the event's runs published, oldest first, across its leases (docs/decisions/live-streams.md,
 * "Run frames in the lease review"): the run page's steps after a reload. The event is found in the
 * caller's workspace and fleet first, so another tenant's event is the same 404 as an unknown one.
 */
export async function listEventFrames(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; event_id: string; starting_after?: string; limit: number },
) {
  await readFleetEventRow(ctx, tenantId, input);
  const ofEvent = inArray(
    runFrames.leaseId,
    ctx.db.select({ id: leases.id }).from(leases).where(eq(leases.eventId, input.event_id)),
  );
  return runFramePage(ctx, `event-frames:${input.event_id}`, ofEvent, input);
}
