import type { StreamFrameKind } from "@fleet/contracts";
import { and, runFrames, type SQL } from "@fleet/db";
import type { ServiceContext } from "./context.ts";
import { keysetPage } from "./keyset.ts";

/**
 * A page of kept run frames (`run_frames`) matching `where`, oldest first, as the live tail sent them: the
 * lease review's and the run page's read. Frame ids are unique and in the tail's order, so they alone order
 * the page (the lease id is only the cursor's tie-break). `bind` ties a cursor to its list.
 */
export async function runFramePage(
  ctx: ServiceContext,
  bind: string,
  where: SQL,
  input: { starting_after?: string; limit: number },
) {
  const page = await keysetPage({
    bind,
    sort: runFrames.id,
    id: runFrames.leaseId,
    descending: false,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(runFrames)
        .where(and(where, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (frame) => ({ value: frame.id, id: frame.leaseId }),
  });
  return {
    items: page.items.map((frame) => ({
      frame_id: String(frame.id),
      lease_id: frame.leaseId,
      kind: frame.kind as StreamFrameKind,
      at: frame.at,
      payload: frame.payload as Record<string, unknown>,
    })),
    next_cursor: page.next_cursor,
    retention_hours: ctx.config.streams.runRetentionHours,
  };
}
