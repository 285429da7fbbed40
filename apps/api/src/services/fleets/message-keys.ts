import { createHash } from "node:crypto";
import { Problem } from "@fleet/contracts";
import { IDEMPOTENCY_WINDOW_MS } from "@fleet/contracts/fleets/message-fleet";
import { and, type Database, eq, messageIdempotencyKeys, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { receivedOutbox, storedRows, webhookIds } from "../fleet-events/received-webhooks.ts";
import type { ServiceContext } from "../shared/context.ts";
import { batchesOf, type GroupCommit } from "../shared/group-commit.ts";
import { notAccepting, requireFleet } from "../shared/tenancy.ts";
import type { ChatRow } from "./message-batches.ts";

/** Expired keys a keyed message deletes at most, so pruning never makes one send slow. */
const PRUNE_BATCH = 100;

/** A keyed message to store once: its event, and the key it claims. */
interface KeyedRow extends ChatRow {
  key: string;
  requestHash: string;
  at: number;
}

interface Claim {
  /** The fleet's status, when the fleet is the caller's; absent when it is not. */
  status: string | null;
  /** Whether this row claimed the key and stored its event. */
  stored: boolean;
}

const batches = new WeakMap<Database, GroupCommit<KeyedRow, Claim>>();

/**
 * Stores a message under an Idempotency-Key once, in one statement on the common path, shared with the
 * keyed messages sent at the same moment (`GroupCommit`; a key sent twice at once goes in two). The
 * statement reads each fleet (scoped to the tenant), claims each key (a new key, or one past its 24 h)
 * only for an active fleet, stores an event only where its claim succeeded, and prunes a few expired
 * keys of those fleets. A concurrent repeat's claim waits on the first claim's row and then finds it
 * taken; only then is the first event read, in a second statement (a statement's own snapshot cannot see
 * a row committed while it waited). A refused send claims nothing, so only a success is remembered.
 */
export async function sendOnce(
  ctx: ServiceContext,
  caller: { tenantId: string; actor: string },
  input: { workspace_id: string; fleet_id: string; message: string; idempotency_key: string },
): Promise<{ eventId: string; stored: boolean; webhookId: string }> {
  const now = ctx.now();
  const requestJson = JSON.stringify({ message: input.message });
  const requestHash = createHash("sha256").update(requestJson, "utf8").digest("hex");
  const expired = now - IDEMPOTENCY_WINDOW_MS;
  const eventId = newId(now);
  const webhookId = newId(now);
  const key = input.idempotency_key;
  // The queue is made once per database, with the first send's context: its deliverer is the instance's.
  const statement = (db: Database, rows: KeyedRow[]) => claimKeys(db, rows, () => ctx.webhookOutbox?.kick());
  const claim = await batchesOf(batches, ctx, statement, conflictOf).store({
    id: eventId,
    fleetId: input.fleet_id,
    workspaceId: input.workspace_id,
    tenantId: caller.tenantId,
    actor: caller.actor,
    requestJson,
    key,
    requestHash,
    at: now,
    webhookId,
  });
  if (claim.stored) return { eventId, stored: true, webhookId };
  if (!claim.status) {
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
  return { eventId: first.eventId, stored: false, webhookId };
}

/**
 * Two claims of one key must not share a statement (it could not update the same row twice). Ids as the
 * database compares them: a path may spell a UUID in capitals, and it is the same fleet.
 */
const conflictOf = (row: KeyedRow) =>
  `${row.workspaceId.toLowerCase()} ${row.fleetId.toLowerCase()} ${row.key}`;

/**
 * One statement for a batch of keyed messages. Claims are taken in (fleet, key) order, so two batches
 * wanting the same keys wait for each other in one order and never deadlock. The fleets' rows are taken
 * first (`for key share`, the lock the events' foreign key takes anyway; the sorted claim reads them all
 * before its first key): a fleet's delete holds its row and then its keys, so a batch that held a key
 * while it waited for the row would close a cycle, and PostgreSQL would fail one of the two.
 */
async function claimKeys(db: Database, rows: KeyedRow[], told?: () => void): Promise<Map<string, Claim>> {
  const column = <K extends keyof KeyedRow>(name: K) => sql.param(rows.map((row) => row[name]));
  const result = await storedRows<{ id: string; status: string | null; stored: boolean; told: boolean }>(
    db,
    sql`
    with m as (
      select * from unnest(${column("id")}::uuid[], ${column("fleetId")}::uuid[], ${column("workspaceId")}::uuid[],
                           ${column("tenantId")}::uuid[], ${column("actor")}::text[], ${column("requestJson")}::text[],
                           ${column("key")}::text[], ${column("requestHash")}::text[], ${column("at")}::bigint[],
                           ${webhookIds(rows)})
        as m(id, fleet_id, workspace_id, tenant_id, actor, request_json, key, request_hash, at, webhook_id)
    ), fleet as (
      select m.id as row_id, f.id, f.workspace_id, f.status from m
        join fleets f on f.id = m.fleet_id and f.workspace_id = m.workspace_id and f.tenant_id = m.tenant_id
        for key share of f
    ), claim as (
      insert into message_idempotency_keys as k (workspace_id, fleet_id, key, request_hash, event_id, created_at)
      select fleet.workspace_id, fleet.id, m.key, m.request_hash, m.id, m.at
        from m join fleet on fleet.row_id = m.id
       where fleet.status = 'active'
       order by fleet.id, m.key
      on conflict (workspace_id, fleet_id, key) do update
        set request_hash = excluded.request_hash, event_id = excluded.event_id, created_at = excluded.created_at
        where k.created_at < excluded.created_at - ${IDEMPOTENCY_WINDOW_MS}::bigint
      returning event_id
    ), stored as (
      insert into fleet_events (id, workspace_id, fleet_id, actor, event_type, request_json, status, created_at, updated_at)
      select m.id, fleet.workspace_id, fleet.id, m.actor, 'chat', m.request_json, 'received', m.at, m.at
        from claim join m on m.id = claim.event_id join fleet on fleet.row_id = m.id
      returning id, workspace_id, fleet_id, actor, request_json
    ), ${receivedOutbox}, pruned as (
      delete from message_idempotency_keys
      where (workspace_id, fleet_id, key) in (
        select workspace_id, fleet_id, key from message_idempotency_keys
        where fleet_id in (select fleet_id from stored)
          and created_at < (select min(at) from m) - ${IDEMPOTENCY_WINDOW_MS}::bigint
          and (fleet_id, key) not in (select fleet_id, key from m)
        limit ${PRUNE_BATCH} for update skip locked)
    )
    select m.id, fleet.status, stored.id is not null as stored,
           exists (select 1 from received) as told
      from m left join fleet on fleet.row_id = m.id left join stored on stored.id = m.id`,
    told,
  );
  return new Map(result.map((row) => [row.id, { status: row.status, stored: row.stored }]));
}
