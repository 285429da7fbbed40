import { Problem } from "@fleet/contracts";
import { and, eq, leases, runFrames, runners } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { runFramePage } from "../shared/run-frame-page.ts";

/**
 * The frames a lease's run published, oldest first (docs/decisions/live-streams.md, "Run frames in the lease
 * review"). A lease of another runner answers as an unknown one.
 */
export async function listLeaseFrames(
  ctx: ServiceContext,
  input: { id: string; lease_id: string; starting_after?: string; limit: number },
) {
  const [runner] = await ctx.db.select({ id: runners.id }).from(runners).where(eq(runners.id, input.id));
  if (runner === undefined) throw new Problem("UZ-RUN-014", { detail: `No runner ${input.id}.` });
  const [lease] = await ctx.db
    .select({ id: leases.id })
    .from(leases)
    .where(and(eq(leases.id, input.lease_id), eq(leases.runnerId, input.id)));
  if (lease === undefined)
    throw new Problem("UZ-RUN-001", { detail: `Runner ${input.id} holds no lease ${input.lease_id}.` });
  return runFramePage(ctx, `lease-frames:${input.lease_id}`, eq(runFrames.leaseId, input.lease_id), input);
}
