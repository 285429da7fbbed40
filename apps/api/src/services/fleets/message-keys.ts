import { createHash } from "node:crypto";
import { Problem } from "@fleet/contracts";
import { IDEMPOTENCY_WINDOW_MS } from "@fleet/contracts/fleets/message-fleet";
import { and, eq, fleetEvents, lt, messageIdempotencyKeys, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../context.ts";
import { notAccepting, requireFleet } from "./access.ts";

/** Expired keys a keyed message deletes at most, so pruning never makes one send slow. */
const PRUNE_BATCH = 100;

/**
 * Stores a message under an Idempotency-Key once. The key is claimed in the same transaction that stores
 * the event, so a concurrent repeat waits on the claim's row and then reads the first event; a claim
 * whose send is refused (a paused fleet) rolls back with it, so only a success is remembered.
 */
export async function sendOnce(
  ctx: ServiceContext,
  caller: { tenantId: string; actor: string },
  input: { workspace_id: string; fleet_id: string; message: string; idempotency_key: string },
): Promise<{ eventId: string; stored: boolean }> {
  const now = ctx.now();
  const requestJson = JSON.stringify({ message: input.message });
  const requestHash = createHash("sha256").update(requestJson, "utf8").digest("hex");
  const expired = now - IDEMPOTENCY_WINDOW_MS;
  return ctx.db.transaction(async (tx) => {
    // Another tenant's fleet, or none, is a 404 before a key is looked at.
    const fleet = await requireFleet(tx, caller.tenantId, input.workspace_id, input.fleet_id);
    const eventId = newId(now);
    const keys = messageIdempotencyKeys;
    const [claimed] = await tx
      .insert(keys)
      .values({
        workspaceId: fleet.workspaceId,
        fleetId: fleet.id,
        key: input.idempotency_key,
        requestHash,
        eventId,
        createdAt: now,
      })
      // A key past its 24 h is free again: the new request takes it over.
      .onConflictDoUpdate({
        target: [keys.workspaceId, keys.fleetId, keys.key],
        set: { requestHash, eventId, createdAt: now },
        setWhere: lt(keys.createdAt, expired),
      })
      .returning({ eventId: keys.eventId });
    if (claimed === undefined) {
      const [first] = await tx
        .select({ requestHash: keys.requestHash, eventId: keys.eventId })
        .from(keys)
        .where(
          and(
            eq(keys.workspaceId, fleet.workspaceId),
            eq(keys.fleetId, fleet.id),
            eq(keys.key, input.idempotency_key),
          ),
        );
      if (first === undefined) throw new Error("an idempotency key conflicted but cannot be read");
      if (first.requestHash !== requestHash)
        throw new Problem("UZ-REQ-008", {
          detail:
            "This Idempotency-Key was sent with a different message in the last 24 h; use a new key for a new message.",
        });
      return { eventId: first.eventId, stored: false };
    }
    if (fleet.status !== "active") throw notAccepting(fleet.status);
    await tx.insert(fleetEvents).values({
      id: eventId,
      workspaceId: fleet.workspaceId,
      fleetId: fleet.id,
      actor: caller.actor,
      eventType: "chat",
      requestJson,
      status: "received",
      createdAt: now,
      updatedAt: now,
    });
    // Pruning rides on keyed sends to the same fleet: a bounded, index-served delete that skips rows a
    // concurrent send is taking over.
    await tx.execute(sql`
      delete from ${keys} where (workspace_id, fleet_id, key) in (
        select workspace_id, fleet_id, key from ${keys}
        where fleet_id = ${fleet.id} and created_at < ${expired}
        limit ${PRUNE_BATCH} for update skip locked)`);
    return { eventId, stored: true };
  });
}
