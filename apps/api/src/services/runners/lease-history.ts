import { Problem } from "@fleet/contracts";
import { and, desc, eq, fleetEvents, fleets, leases, runners, type SQL, sql } from "@fleet/db";
import type { ServiceContext } from "../context.ts";
import { decodeCursor, encodeCursor } from "../cursor.ts";
import { present } from "../tags.ts";

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
  const bind = `runner-leases:${input.id}`;
  const conditions: SQL[] = [eq(leases.runnerId, input.id)];
  if (input.starting_after !== undefined) {
    const after = decodeCursor(input.starting_after, bind);
    conditions.push(sql`(${leases.createdAt}, ${leases.id}) < (${after.value}, ${after.id}::uuid)`);
  }
  const rows = await ctx.db
    .select({ lease: leases, fleetName: fleets.name, eventId: fleetEvents.id })
    .from(leases)
    .leftJoin(fleets, eq(fleets.id, leases.fleetId))
    .leftJoin(fleetEvents, eq(fleetEvents.id, leases.eventId))
    .where(and(...conditions))
    .orderBy(desc(leases.createdAt), desc(leases.id))
    .limit(input.limit + 1);
  const now = ctx.now();
  const items = rows.slice(0, input.limit);
  const last = items.at(-1);
  return {
    items: items.map(({ lease, fleetName, eventId }) => {
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
    next_cursor:
      rows.length > input.limit && last
        ? encodeCursor({ bind, value: last.lease.createdAt, id: last.lease.id })
        : null,
  };
}
