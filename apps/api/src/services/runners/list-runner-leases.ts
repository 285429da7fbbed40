import { Problem } from "@fleet/contracts";
import { and, eq, fleetEvents, fleets, leases, runners } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";
import { present } from "../shared/tags.ts";

type LeaseRow = typeof leases.$inferSelect;

/**
 * A lease's outcome as of `now`: its own expiry first (expired even when another host finished the
 * work), then a missing event (unknown), then what the report said.
 */
export function leaseOutcome(lease: LeaseRow, eventExists: boolean, now: number) {
  if (lease.status === "expired" || (lease.status === "running" && lease.expiresAt <= now)) {
    return "expired" as const;
  }
  if (!eventExists) return "unknown" as const;
  return lease.status as "running" | "succeeded" | "failed";
}

/** A runner's leases, newest first, with the fleet's name; never the event's bodies. */
export async function listRunnerLeases(
  ctx: ServiceContext,
  input: { id: string; starting_after?: string; limit: number },
) {
  const [runner] = await ctx.db.select({ id: runners.id }).from(runners).where(eq(runners.id, input.id));
  if (runner === undefined) throw new Problem("UZ-RUN-014", { detail: `No runner ${input.id}.` });
  const page = await keysetPage({
    bind: `runner-leases:${input.id}`,
    sort: leases.createdAt,
    id: leases.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select({ lease: leases, fleetName: fleets.name, eventId: fleetEvents.id })
        .from(leases)
        .leftJoin(fleets, eq(fleets.id, leases.fleetId))
        .leftJoin(fleetEvents, eq(fleetEvents.id, leases.eventId))
        .where(and(eq(leases.runnerId, input.id), after))
        .orderBy(...order)
        .limit(rows),
    keyOf: ({ lease }) => ({ value: lease.createdAt, id: lease.id }),
  });
  const now = ctx.now();
  return {
    items: page.items.map(({ lease, fleetName, eventId }) => {
      const outcome = leaseOutcome(lease, eventId !== null, now);
      return {
        lease_id: lease.id,
        outcome,
        ...(outcome === "failed" ? present("failure_label", lease.failureLabel) : {}),
        ...(outcome === "failed" ? present("failure_detail", lease.failureDetail) : {}),
        fencing_token: lease.fencingToken,
        kind: lease.kind as "fresh" | "reclaim",
        provider: lease.provider,
        model: lease.model,
        posture: lease.posture,
        input_tokens: lease.inputTokens,
        output_tokens: lease.outputTokens,
        cached_tokens: lease.cachedTokens,
        fleet_id: lease.fleetId,
        workspace_id: lease.workspaceId,
        fleet_name: fleetName,
        event_id: lease.eventId,
        created_at: lease.createdAt,
        expires_at: lease.expiresAt,
        ended_at: lease.endedAt,
      };
    }),
    next_cursor: page.next_cursor,
  };
}
