import { eq, fleets, leases } from "@fleet/db";
import { recordRunnerEvent } from "../runners/runner-events.ts";
import { dropMasker } from "../secrets/lease-masker.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

/** Ends the caller's lease unfinished: it reads expired, and its fleet's work can be leased at once. */
export async function releaseLease(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; fencing_token: number },
) {
  const now = ctx.now();
  const released = await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    await tx
      .update(leases)
      .set({ status: "expired", endedAt: now, deliveredSealed: null })
      .where(eq(leases.id, lease.id));
    await tx.update(fleets).set({ leasedUntil: null }).where(eq(fleets.id, lease.fleetId));
    await recordRunnerEvent(tx, runnerId, "lease_released", now, { lease_id: lease.id, outcome: "released" });
    return { lease_id: lease.id, released: true as const };
  });
  dropMasker(ctx.vault, released.lease_id);
  ctx.work.announce(); // the fleet's waiting work can be leased now
  ctx.metrics?.lease("released");
  return released;
}
