import type { OutputOf } from "@fleet/contracts";
import type { messageFleet } from "@fleet/contracts/fleets/message-fleet";
import { eq, fleetEvents, inArray, messageIdempotencyKeys, resultRows, sql } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { type ChatRow, storeChats } from "../src/services/fleets/message-batches.ts";
import { GroupCommit } from "../src/services/shared/group-commit.ts";
import { installFleet } from "./fleet-fixtures.ts";
import {
  call,
  databaseKind,
  type Response,
  seedTenant,
  type Tenant,
  type TestApi,
  testApi,
  useIsolatedApi,
} from "./harness.ts";

// Hundreds of waiting messages to fleets any runner may lease: in the shared database they would stand
// before other files' own work in a runner's queue (oldest first).
useIsolatedApi();

type Accepted = OutputOf<typeof messageFleet>;
/** A send's answer: its event, or its refusal's code. */
type Answer = Response<Accepted & { error_code?: string }>;

function send(tenant: Tenant, workspaceId: string, fleetId: string, message: string, key?: string) {
  return call<Accepted & { error_code?: string }>(
    "POST",
    `/v1/workspaces/${workspaceId}/fleets/${fleetId}/messages`,
    { token: tenant.apiKey, headers: key === undefined ? {} : { "idempotency-key": key }, body: { message } },
  );
}

async function pauseFleet(tenant: Tenant, fleetId: string): Promise<void> {
  const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
  const read = await call<{ etag: string }>("GET", path, { token: tenant.apiKey });
  const moved = await call("PATCH", path, {
    token: tenant.apiKey,
    headers: { "if-match": read.body.etag },
    body: { status: "paused" },
  });
  expect(moved.status, moved.text).toBe(200);
}

/** The transactions that stored these events: rows one statement stored share its transaction id. */
async function transactionsOf(ids: string[]): Promise<number> {
  const api = await testApi();
  const result = await api.database.db.execute(
    sql`select count(distinct xmin::text)::int as n from fleet_events where id in ${ids}`,
  );
  return resultRows<{ n: number }>(result)[0]!.n;
}

/**
 * Waits until `count` statements matching `pattern` wait on a lock (on PGlite, one connection: the others
 * simply queue behind the held transaction). A transaction reads pg_stat_activity once and keeps that
 * snapshot unless told to clear it; the view keeps only a query's first 1 KiB, so match early text.
 */
async function waitingOn(
  db: Pick<TestApi["database"]["db"], "execute">,
  pattern: string,
  count = 1,
): Promise<void> {
  if (databaseKind === "pglite") {
    await pause(300);
    return;
  }
  for (let tries = 0; tries < 250; tries++) {
    await db.execute(sql`select pg_stat_clear_snapshot()`);
    const result = await db.execute(
      sql`select count(*)::int as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and query ilike ${pattern}`,
    );
    if (resultRows<{ n: number }>(result)[0]!.n >= count) return;
    await pause(20);
  }
  const seen = await db.execute(
    sql`select wait_event_type, wait_event, left(query, 80) as query from pg_stat_activity
         where datname = current_database() and state <> 'idle'`,
  );
  throw new Error(
    `fewer than ${count} statements like ${pattern} ever waited on a lock: ${JSON.stringify(resultRows(seen))}`,
  );
}

/** A row as the route would queue it, for the tests that drive the batcher itself. */
function chatRow(owner: Tenant, fleetId: string, message: string, over: Partial<ChatRow> = {}): ChatRow {
  const at = Date.now();
  return {
    id: newId(at),
    fleetId,
    workspaceId: owner.workspaceId,
    tenantId: owner.tenantId,
    actor: "user:batch-test",
    requestJson: JSON.stringify({ message }),
    at,
    webhookId: newId(at),
    ...over,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `sends` while a transaction holds the fleets' rows, so every statement storing to them waits (on
 * PGlite, every statement): what arrives meanwhile queues, and goes together once the lock is let go.
 */
async function whileLocked<T>(fleetIds: string[], sends: () => Promise<T>): Promise<T> {
  const api = await testApi();
  let result: Promise<T> | null = null;
  await api.database.db.transaction(async (tx) => {
    await tx.execute(sql`select id from fleets where id in ${fleetIds} for update`);
    result = sends();
    await pause(300);
  });
  if (result === null) throw new Error("the sends never started");
  return result;
}

describe("fleets: messages sent at the same moment share a statement", () => {
  it("answers each of many concurrent sends for itself: its own event, text and fleet, or its refusal", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const active = await Promise.all([installFleet(owner), installFleet(owner), installFleet(owner)]);
    const paused = await installFleet(owner);
    await pauseFleet(owner, paused);
    const theirs = await installFleet(stranger);

    type Sent = { fleetId: string; message: string; expect: number; response?: Answer };
    const sends: Sent[] = [];
    for (let n = 0; n < 90; n++)
      sends.push({ fleetId: active[n % 3]!, message: `run ${n} ${newId()}`, expect: 202 });
    for (let n = 0; n < 10; n++) sends.push({ fleetId: paused, message: `paused ${n}`, expect: 409 });
    for (let n = 0; n < 10; n++) sends.push({ fleetId: theirs, message: `theirs ${n}`, expect: 404 });
    for (let n = 0; n < 10; n++) sends.push({ fleetId: newId(), message: `nowhere ${n}`, expect: 404 });
    // Interleaved, so the refusals land in the same batches as the successes.
    sends.sort(() => Math.random() - 0.5);
    await Promise.all(
      sends.map(async (entry) => {
        entry.response = await send(owner, owner.workspaceId, entry.fleetId, entry.message);
      }),
    );

    for (const entry of sends) expect(entry.response!.status, entry.response!.text).toBe(entry.expect);
    for (const entry of sends.filter((s) => s.fleetId === paused))
      expect(entry.response!.body.error_code).toBe("UZ-FLEET-003");
    for (const entry of sends.filter((s) => s.expect === 404))
      expect(entry.response!.body.error_code).toBe("UZ-FLEET-001");

    const accepted = sends.filter((entry) => entry.expect === 202);
    const ids = accepted.map((entry) => entry.response!.body.event_id);
    expect(new Set(ids).size).toBe(accepted.length);
    const api = await testApi();
    const rows = await api.database.db
      .select({ id: fleetEvents.id, fleetId: fleetEvents.fleetId, requestJson: fleetEvents.requestJson })
      .from(fleetEvents)
      .where(inArray(fleetEvents.fleetId, [...active, paused, theirs]));
    // Exactly the accepted sends were stored, each under the id its own answer gave, with its own text.
    expect(rows).toHaveLength(accepted.length);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const entry of accepted) {
      const row = byId.get(entry.response!.body.event_id);
      expect(row?.fleetId).toBe(entry.fleetId);
      expect(JSON.parse(row!.requestJson)).toEqual({ message: entry.message });
    }
  });

  it("stores the sends that arrived while its statements were busy together, in one transaction", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const sent = await whileLocked([fleetId], () =>
      Promise.all(
        Array.from({ length: 20 }, (_, n) => send(owner, owner.workspaceId, fleetId, `queued ${n}`)),
      ),
    );
    for (const response of sent) expect(response.status, response.text).toBe(202);
    const ids = sent.map((response) => response.body.event_id);
    expect(new Set(ids).size).toBe(20);
    // One statement each would be 20 transactions: at most the two stuck ones and a few more.
    expect(await transactionsOf(ids)).toBeLessThan(10);
  });

  it("stores the messages of one moment in one statement, and a row that fails it fails alone", async () => {
    const owner = await seedTenant();
    const stranger = await seedTenant();
    const fleetId = await installFleet(owner);
    const paused = await installFleet(owner);
    await pauseFleet(owner, paused);
    const api = await testApi();
    const batches = new GroupCommit(api.database.db, storeChats, 2_000);
    const row = (over: Partial<ChatRow> = {}) => chatRow(owner, fleetId, "together", over);

    // Queued in one turn of the event loop: one statement, so one transaction stored them all.
    const together = [row(), row(), row(), row(), row()];
    expect(await Promise.all(together.map((r) => batches.store(r)))).toEqual([true, true, true, true, true]);
    expect(await transactionsOf(together.map((r) => r.id))).toBe(1);

    // Refused rows in the same statement: another tenant, a paused fleet, another workspace.
    const mixed = [
      row(),
      row({ tenantId: stranger.tenantId }),
      row({ fleetId: paused }),
      row({ workspaceId: stranger.workspaceId }),
      row(),
    ];
    expect(await Promise.all(mixed.map((r) => batches.store(r)))).toEqual([true, false, false, false, true]);

    // A row whose id is taken fails the statement; every other row is then stored alone.
    const taken = together[0]!.id;
    const rest = [row(), row(), row()];
    const answers = await Promise.allSettled([
      batches.store(rest[0]!),
      batches.store(row({ id: taken, requestJson: JSON.stringify({ message: "duplicate" }) })),
      batches.store(rest[1]!),
      batches.store(rest[2]!),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    const stored = await api.database.db
      .select({ id: fleetEvents.id, requestJson: fleetEvents.requestJson })
      .from(fleetEvents)
      .where(eq(fleetEvents.fleetId, fleetId));
    expect(stored).toHaveLength(together.length + 2 + rest.length);
    expect(stored.find((r) => r.id === taken)?.requestJson).toBe(JSON.stringify({ message: "together" }));
  });

  it("refuses a message that waited past the pool's deadline while every statement was stuck, and never sends it", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const api = await testApi();
    const batches = new GroupCommit(api.database.db, storeChats, 300);
    const row = () => chatRow(owner, fleetId, "stuck");
    const first = row();
    const second = row();
    const late = row();
    let stored: Promise<boolean[]> = Promise.resolve([]);
    let refusal: unknown = null;
    // The fleet's row locked: an event's foreign key check (or, on PGlite, any other statement) waits.
    await api.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from fleets where id = ${fleetId} for update`);
      const one = batches.store(first);
      await pause(50);
      const two = batches.store(second);
      await pause(50);
      stored = Promise.all([one, two]);
      // Both statements are in flight and stuck: this one queues, and is refused at its deadline.
      // Raced against a bound of its own, so a regression fails the test instead of holding the lock
      // (and, on PGlite, the whole database) forever.
      refusal = await Promise.race([
        batches.store(late).then(
          () => null,
          (error: unknown) => error,
        ),
        pause(5_000).then(() => "no answer within 5 s"),
      ]);
    });
    expect(refusal).toMatchObject({ code: "POOL_TIMEOUT" });
    expect(await stored).toEqual([true, true]);
    const ids = (
      await api.database.db
        .select({ id: fleetEvents.id })
        .from(fleetEvents)
        .where(eq(fleetEvents.fleetId, fleetId))
    ).map((r) => r.id);
    expect(ids.sort()).toEqual([first.id, second.id].sort());
  });

  it("batches keyed sends too: each key stores once, a repeat answers the first, a changed message is refused", async () => {
    const owner = await seedTenant();
    const fleets = [await installFleet(owner), await installFleet(owner)];
    type Keyed = { fleetId: string; key: string; message: string; response?: Answer };
    const sends: Keyed[] = [];
    for (let n = 0; n < 40; n++) {
      const fleetId = fleets[n % 2]!;
      sends.push({ fleetId, key: `k-${n}`, message: `keyed ${n}` });
      // Every fourth key twice more: once the same message (a repeat), once another (refused).
      if (n % 4 === 0) {
        sends.push({ fleetId, key: `k-${n}`, message: `keyed ${n}` });
        sends.push({ fleetId, key: `k-${n}`, message: `changed ${n}` });
      }
    }
    // The same key on the other fleet is another key; the same fleet spelled in capitals is the same one.
    sends.push({ fleetId: fleets[1]!, key: "k-0", message: "keyed 0 elsewhere" });
    sends.push({ fleetId: fleets[0]!.toUpperCase(), key: "k-0", message: "keyed 0" });
    sends.push({ fleetId: fleets[0]!.toUpperCase(), key: "k-0", message: "changed 0" });
    // Refusals in the same batches: a paused fleet claims nothing, another tenant's reads as absent.
    const stranger = await seedTenant();
    const paused = await installFleet(owner);
    await pauseFleet(owner, paused);
    const theirs = await installFleet(stranger);
    const refused: Keyed[] = [paused, theirs].flatMap((fleetId) =>
      Array.from({ length: 4 }, (_, n) => ({ fleetId, key: `k-${n}`, message: `keyed ${n}` })),
    );
    sends.push(...refused);
    sends.sort(() => Math.random() - 0.5);
    // Sent while the statements are stuck, so they queue and go in shared batches.
    await whileLocked([...fleets, paused], () =>
      Promise.all(
        sends.map(async (entry) => {
          entry.response = await send(owner, owner.workspaceId, entry.fleetId, entry.message, entry.key);
        }),
      ),
    );

    const api = await testApi();
    const rows = await api.database.db
      .select({ id: fleetEvents.id, fleetId: fleetEvents.fleetId, requestJson: fleetEvents.requestJson })
      .from(fleetEvents)
      .where(inArray(fleetEvents.fleetId, fleets));
    for (const entry of refused) {
      const expected = entry.fleetId === paused ? [409, "UZ-FLEET-003"] : [404, "UZ-FLEET-001"];
      expect([entry.response!.status, entry.response!.body.error_code]).toEqual(expected);
    }
    const claimed = await api.database.db
      .select({ fleetId: messageIdempotencyKeys.fleetId })
      .from(messageIdempotencyKeys)
      .where(inArray(messageIdempotencyKeys.fleetId, [paused, theirs]));
    expect(claimed).toEqual([]);
    const byKey = new Map<string, Keyed[]>();
    for (const entry of sends.filter((send) => !refused.includes(send))) {
      const group = `${entry.fleetId.toLowerCase()} ${entry.key}`;
      byKey.set(group, [...(byKey.get(group) ?? []), entry]);
    }
    // One event per (fleet, key): the message of whichever send claimed it first.
    expect(rows).toHaveLength(byKey.size);
    for (const group of byKey.values()) {
      const accepted = group.filter((entry) => entry.response!.status === 202);
      const ids = new Set(accepted.map((entry) => entry.response!.body.event_id));
      expect(ids.size).toBe(1);
      const row = rows.find((r) => r.id === [...ids][0]);
      const first = JSON.parse(row!.requestJson).message;
      for (const entry of group) {
        if (entry.message === first) expect(entry.response!.status, entry.response!.text).toBe(202);
        else expect(entry.response!.body.error_code).toBe("UZ-REQ-008");
      }
    }
    expect(await transactionsOf(rows.map((row) => row.id))).toBeLessThan(rows.length / 2);
  });

  it("lets a fleet's delete and a send re-claiming one of its expired keys both finish, in either order", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const first = await send(owner, owner.workspaceId, fleetId, "first", "kept-key");
    expect(first.status, first.text).toBe(202);
    const api = await testApi();
    // The key past its 24 h, so the next send with it claims the same row again.
    await api.database.db.execute(
      sql`update message_idempotency_keys set created_at = created_at - 2 * 86400000 where fleet_id = ${fleetId}`,
    );
    let again: Promise<Answer> | null = null;
    let deleted: Promise<Response> | null = null;
    // The key's row held: the send waits on it, then the delete arrives behind both. Before the send
    // took its fleet's row first, the delete held that row and waited on the key, the send held the
    // key and waited on the row, and PostgreSQL broke the cycle by failing the delete with a 500.
    await api.database.db.transaction(async (tx) => {
      await tx.execute(sql`select key from message_idempotency_keys where fleet_id = ${fleetId} for update`);
      again = send(owner, owner.workspaceId, fleetId, "again", "kept-key");
      await waitingOn(tx, "%request_hash%");
      deleted = call("DELETE", `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}`, {
        token: owner.apiKey,
      });
      await waitingOn(tx, 'delete from "fleets"%');
    });
    const [sent, gone] = [await again!, await deleted!];
    expect(gone.status, gone.text).toBe(204);
    expect(sent.status, sent.text).toBe(202);
    const after = await call("GET", `/v1/workspaces/${owner.workspaceId}/fleets/${fleetId}`, {
      token: owner.apiKey,
    });
    expect(after.status).toBe(404);
  });

  it("refuses a send, keyed or not, whose fleet is deleted while it waits for the fleet's row (404)", async () => {
    const owner = await seedTenant();
    const fleetId = await installFleet(owner);
    const api = await testApi();
    let sent: Promise<Answer[]> | null = null;
    // The delete done but not committed: the sends' statements wait on the fleet's row, then find it gone.
    await api.database.db.transaction(async (tx) => {
      await tx.execute(sql`delete from fleets where id = ${fleetId}`);
      sent = Promise.all([
        send(owner, owner.workspaceId, fleetId, "unkeyed"),
        send(owner, owner.workspaceId, fleetId, "keyed", "late-key"),
      ]);
      // Both statements (each names `unnest` in its first lines, which is all the view keeps of a query).
      await waitingOn(tx, "%unnest(%", 2);
    });
    for (const answer of await sent!) {
      expect([answer.status, answer.body.error_code], answer.text).toEqual([404, "UZ-FLEET-001"]);
    }
  });
});
