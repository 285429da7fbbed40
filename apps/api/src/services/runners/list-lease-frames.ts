import type { StreamFrameKind } from "@fleet/contracts";
import { Problem } from "@fleet/contracts";
import { and, eq, leases, runFrames, runners } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";

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
  // One lease: the cursor's tie-breaking id is the lease's own, so frame ids alone order the page.
  const page = await keysetPage({
    bind: `lease-frames:${input.lease_id}`,
    sort: runFrames.id,
    id: runFrames.leaseId,
    descending: false,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(runFrames)
        .where(and(eq(runFrames.leaseId, input.lease_id), after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (frame) => ({ value: frame.id, id: frame.leaseId }),
  });
  return {
    items: page.items.map((frame) => ({
      frame_id: String(frame.id),
      kind: frame.kind as StreamFrameKind,
      at: frame.at,
      payload: frame.payload as Record<string, unknown>,
    })),
    next_cursor: page.next_cursor,
    retention_hours: ctx.config.streams.runRetentionHours,
  };
}
