import { createHash } from "node:crypto";
import { Problem } from "@fleet/contracts";
import { IDEMPOTENCY_WINDOW_MS } from "@fleet/contracts/fleets/message-fleet";
import { and, eq, messageIdempotencyKeys, resultRows, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../context.ts";
import { notAccepting, requireFleet } from "./access.ts";

/** Expired keys a keyed message deletes at most, so pruning never makes one send slow. */
const PRUNE_BATCH = 100;

interface Claim {
  /** The fleet's status, when the fleet is the caller's; absent when it is not. */
  status: string | null;
  /** The event stored under the key now, when this request claimed it. */
  stored: string | null;
}

/**
 * Stores a message under an Idempotency-Key once, in one statement on the common path: the statement
 * reads the fleet (scoped to the tenant), claims the key (a new key, or one past its 24 h) only for an
 * active fleet, stores the event only when the claim succeeded, and prunes a few expired keys of the
 * fleet. A concurrent repeat's claim waits on the first claim's row and then finds it taken; only then is
 * the first event read, in a second statement (a statement's own snapshot cannot see a row committed
 * while it waited). A refused send claims nothing, so only a success is remembered.
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
  const eventId = newId(now);
  const key = input.idempotency_key;
  const result = await ctx.db.execute(sql`
    with fleet as (
      select id, workspace_id, status from fleets
      where id = ${input.fleet_id} and workspace_id = ${input.workspace_id} and tenant_id = ${caller.tenantId}
    ), claim as (
      insert into message_idempotency_keys (workspace_id, fleet_id, key, request_hash, event_id, created_at)
      select workspace_id, id, ${key}, ${requestHash}, ${eventId}, ${now} from fleet where status = 'active'
      on conflict (workspace_id, fleet_id, key) do update
        set request_hash = excluded.request_hash, event_id = excluded.event_id, created_at = excluded.created_at
        where message_idempotency_keys.created_at < ${expired}
      returning event_id
    ), stored as (
      insert into fleet_events (id, workspace_id, fleet_id, actor, event_type, request_json, status, created_at, updated_at)
      select claim.event_id, fleet.workspace_id, fleet.id, ${caller.actor}, 'chat', ${requestJson}, 'received', ${now}, ${now}
      from claim, fleet
      returning id
    ), pruned as (
      delete from message_idempotency_keys
      where (workspace_id, fleet_id, key) in (
        select workspace_id, fleet_id, key from message_idempotency_keys
        where fleet_id = ${input.fleet_id} and created_at < ${expired} and key <> ${key}
        limit ${PRUNE_BATCH} for update skip locked)
        and exists (select 1 from stored)
    )
    select (select status from fleet) as status, (select id from stored) as stored`);
  const [claim] = resultRows<Claim>(result);
  if (claim?.stored) return { eventId: claim.stored, stored: true };
  if (!claim?.status) {
    // Another tenant's fleet, or none: the same 404 as without a key.
    await requireFleet(ctx.db, caller.tenantId, input.workspace_id, input.fleet_id);
    throw new Error("a fleet the key statement could not see was found after it");
  }
  const keys = messageIdempotencyKeys;
  const [first] = await ctx.db
    .select({ requestHash: keys.requestHash, eventId: keys.eventId, createdAt: keys.createdAt })
    .from(keys)
    .where(
      and(eq(keys.workspaceId, input.workspace_id), eq(keys.fleetId, input.fleet_id), eq(keys.key, key)),
    );
  // No live key: the fleet refused the send (paused, stopped or killed).
  if (first === undefined || first.createdAt < expired) throw notAccepting(claim.status);
  if (first.requestHash !== requestHash)
    throw new Problem("UZ-REQ-008", {
      detail:
        "This Idempotency-Key was sent with a different message in the last 24 h; use a new key for a new message.",
    });
  return { eventId: first.eventId, stored: false };
}
