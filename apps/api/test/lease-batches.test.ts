import {
  charges,
  eq,
  fleetEvents,
  fleets,
  inArray,
  leases,
  runnerEvents,
  sql,
  webhookEvents,
} from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { claimMany } from "../src/services/leases/acquire-claims.ts";
import { expireLapsedLeases } from "../src/services/leases/acquire-lease.ts";
import { finishUnhooked, finishWithOutbox, type ReportRow } from "../src/services/leases/report-batches.ts";
import { uniqueLabel } from "./fleet-fixtures.ts";
import { call, testApi, useIsolatedApi } from "./harness.ts";
import { busyFleets, expire, heldWithLapse } from "./lease-batch-fixtures.ts";
import { acquire, type EnrolledRunner, enrollRunner, type HeldLease, report } from "./runner-fixtures.ts";
import { endpointIn, endpointsPath } from "./webhook-endpoint-fixtures.ts";

// Issue 34: acquires and reports are batched (one statement and one commit per batch). These are the races
// the batches must hold: each fleet leased once, first writer wins, a stale token changes nothing.
useIsolatedApi();

function reportRow(
  runner: EnrolledRunner,
  lease: HeldLease,
  text: string,
  token = lease.fencing_token,
): ReportRow {
  const at = Date.now();
  return {
    id: newId(at),
    leaseId: lease.lease_id,
    eventId: lease.event_id,
    runnerId: runner.runnerId,
    fencingToken: token,
    leaseStatus: "succeeded",
    outcome: "processed",
    responseText: text,
    failureLabel: null,
    failureDetail: null,
    tokens: null,
    wallMs: null,
    eventCost: 1000,
    checkpointId: null,
    provider: null,
    model: null,
    posture: null,
    inputTokens: null,
    outputTokens: null,
    cachedTokens: null,
    cost: 1000,
    priceInput: null,
    priceCachedInput: null,
    priceOutput: null,
    priceSource: "reported",
    historyId: newId(at),
    webhookId: newId(at),
    at,
    period: new Date(at).toISOString().slice(0, 7),
  };
}

describe("lease batches", () => {
  it("gives each fleet one lease, its oldest event, when many runners acquire at once", async () => {
    const label = uniqueLabel();
    const { fleetIds, events } = await busyFleets(label, 3, 2);
    const runners = await Promise.all(Array.from({ length: 8 }, () => enrollRunner({ labels: [label] })));
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => acquire(runners[i % 8]!)));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const granted = answers.map((answer) => answer.body.lease).filter((lease) => lease !== null);
    // Every fleet was free and any runner may take it: all three are leased, each once.
    expect(granted.map((lease) => lease.fleet_id).sort()).toEqual([...fleetIds].sort());
    for (const lease of granted) {
      expect(lease.event_id).toBe(events.get(lease.fleet_id)![0]);
      expect(lease.fencing_token).toBe(1);
    }
    // Nothing else may be leased while they are held; a second round after the reports takes the next events.
    expect((await acquire(runners[0]!)).body.lease).toBeNull();
    const owners = new Map(answers.map((answer, i) => [answer.body.lease?.lease_id, runners[i % 8]!]));
    for (const lease of granted) expect((await report(owners.get(lease.lease_id)!, lease)).status).toBe(200);
    const again = await Promise.all(Array.from({ length: 40 }, (_, i) => acquire(runners[i % 8]!)));
    const next = again.map((answer) => answer.body.lease).filter((lease) => lease !== null);
    expect(next.map((lease) => lease.event_id).sort()).toEqual(
      fleetIds.map((id) => events.get(id)![1]).sort(),
    );
  });

  it("leases each fleet only to runners with its labels when one batch mixes them", async () => {
    const a = uniqueLabel();
    const b = uniqueLabel();
    const left = await busyFleets(a, 2, 1);
    const right = await busyFleets(b, 2, 1);
    const runnersA = await Promise.all(Array.from({ length: 4 }, () => enrollRunner({ labels: [a] })));
    const runnersB = await Promise.all(Array.from({ length: 4 }, () => enrollRunner({ labels: [b] })));
    const all = [...runnersA, ...runnersB];
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => acquire(all[i % 8]!)));
    const leasedBy = new Map<string, string>();
    answers.forEach((answer, i) => {
      expect(answer.status, answer.text).toBe(200);
      const lease = answer.body.lease;
      if (lease === null) return;
      expect(leasedBy.has(lease.fleet_id), "a fleet leased twice").toBe(false);
      leasedBy.set(lease.fleet_id, i % 8 < 4 ? a : b);
    });
    // Whatever the batch left (a fleet it locked but could not give), a runner of the right label takes next.
    for (const runner of [runnersA[0]!, runnersA[1]!, runnersB[0]!, runnersB[1]!]) {
      const lease = (await acquire(runner)).body.lease;
      if (lease === null) continue;
      expect(leasedBy.has(lease.fleet_id), "a fleet leased twice").toBe(false);
      leasedBy.set(lease.fleet_id, runnersA.includes(runner) ? a : b);
    }
    for (const fleetId of left.fleetIds) expect(leasedBy.get(fleetId)).toBe(a);
    for (const fleetId of right.fleetIds) expect(leasedBy.get(fleetId)).toBe(b);
  });

  it("claims distinct fleets for one statement's acquires, and none for a runner whose labels fit nothing", async () => {
    const label = uniqueLabel();
    const { fleetIds } = await busyFleets(label, 2, 3);
    const runners = await Promise.all(Array.from({ length: 4 }, () => enrollRunner({ labels: [label] })));
    const stranger = await enrollRunner({ labels: [uniqueLabel()] });
    const api = await testApi();
    const at = Date.now();
    const rows = [...runners, stranger].map((runner) => ({
      id: newId(at),
      runnerId: runner.runnerId,
      historyId: newId(at),
      at,
      ttlMs: 30_000,
    }));
    const answers = await claimMany(api.database.db, rows);
    const leased = [...answers.values()].filter((answer) => answer !== null && answer !== "alone");
    expect(leased.map((lease) => lease.fleet_id).sort()).toEqual([...fleetIds].sort());
    expect(answers.get(rows[4]!.id)).not.toMatchObject({ lease_id: expect.any(String) });
  });

  it("leases no more than its acquires though it looks at more events, and says it passed fleets over", async () => {
    const label = uniqueLabel();
    const { fleetIds } = await busyFleets(label, 5, 1);
    const runners = await Promise.all(Array.from({ length: 3 }, () => enrollRunner({ labels: [label] })));
    const api = await testApi();
    const at = Date.now();
    const rows = runners.map((runner) => ({
      id: newId(at),
      runnerId: runner.runnerId,
      historyId: newId(at),
      at,
      ttlMs: 30_000,
    }));
    // Three acquires look at four events: the fourth fleet was locked and not leased, so the acquires
    // beside the batch (which skipped it) are told to look again.
    let passedOver = 0;
    const answers = await claimMany(api.database.db, rows, () => passedOver++);
    expect(passedOver).toBe(1);
    for (const row of rows) expect(answers.get(row.id)).toMatchObject({ lease_id: row.id });
    const db = api.database.db;
    const held = await db.select().from(leases).where(inArray(leases.fleetId, fleetIds));
    expect(held).toHaveLength(3);
    const free = await db
      .select({ id: fleets.id })
      .from(fleets)
      .where(sql`${fleets.id} in ${fleetIds} and ${fleets.leasedUntil} is null`);
    expect(free).toHaveLength(2);
    // Two acquires for the two fleets left: both leased, none passed over.
    const last = runners.slice(0, 2).map((runner) => ({
      ...rows[0]!,
      id: newId(at),
      runnerId: runner.runnerId,
      historyId: newId(at),
    }));
    const rest = await claimMany(db, last, () => passedOver++);
    expect([...rest.values()].filter((answer) => answer !== null && answer !== "alone")).toHaveLength(2);
    expect(passedOver).toBe(1);
  });

  for (const [name, finish] of [
    ["in autocommit", finishUnhooked],
    ["with the outbox", finishWithOutbox],
  ] as const)
    it(`applies only the current holder's report when stale and current ones share a statement (${name})`, async () => {
      const label = uniqueLabel();
      const { fleetIds, events } = await busyFleets(label, 1, 1);
      const fleetId = fleetIds[0]!;
      const eventId = events.get(fleetId)![0]!;
      const first = await enrollRunner({ labels: [label] });
      const second = await enrollRunner({ labels: [label] });
      const old = (await acquire(first)).body.lease!;
      await expire(old.lease_id);
      const current = (await acquire(second)).body.lease!;
      expect(current.fencing_token).toBe(old.fencing_token + 1);
      const api = await testApi();
      const before = await api.database.db.select().from(fleets).where(eq(fleets.id, fleetId));
      const answers = await finish(api.database.db, [
        reportRow(first, old, "stale holder"),
        reportRow(second, current, "stale token", old.fencing_token),
        reportRow(first, current, "not the holder"),
        reportRow(second, current, "current holder"),
      ]);
      const finished = [...answers.values()].filter((answer) => answer !== null);
      expect(finished).toHaveLength(1);
      expect(finished[0]!.id).toBe(current.lease_id);
      const [event] = await api.database.db.select().from(fleetEvents).where(eq(fleetEvents.id, eventId));
      expect(event).toMatchObject({ status: "processed", responseText: "current holder" });
      const [after] = await api.database.db.select().from(fleets).where(eq(fleets.id, fleetId));
      expect(after!.eventsProcessed).toBe(before[0]!.eventsProcessed + 1);
      expect(after!.leasedUntil).toBeNull();
      const charged = await api.database.db.select().from(charges).where(eq(charges.eventId, eventId));
      expect(charged).toHaveLength(1);
      // Over HTTP afterwards every one of them is refused: the lease has ended.
      expect((await report(second, current)).status).toBe(409);
      expect((await report(first, old)).status).toBe(409);
    });

  it("leaves a report an endpoint takes to the transaction that writes its outgoing event", async () => {
    const label = uniqueLabel();
    const { tenant, fleetIds } = await busyFleets(label, 2, 1);
    // Takes `event.failed` of every fleet of the workspace, not `event.completed`.
    const endpoint = await endpointIn(tenant);
    const runners = await Promise.all(fleetIds.map(() => enrollRunner({ labels: [label] })));
    const [failing, passing] = await Promise.all(
      runners.map(async (runner) => ({ runner, lease: (await acquire(runner)).body.lease! })),
    );
    const failed: ReportRow = {
      ...reportRow(failing!.runner, failing!.lease, "no"),
      leaseStatus: "failed",
      outcome: "fleet_error",
      failureLabel: "deploy_failed",
    };
    const processed = reportRow(passing!.runner, passing!.lease, "yes");
    const stale = reportRow(passing!.runner, passing!.lease, "stale", passing!.lease.fencing_token + 1);
    const api = await testApi();
    const db = api.database.db;
    const statuses = async () => {
      const events = await db
        .select()
        .from(fleetEvents)
        .where(inArray(fleetEvents.id, [failing!.lease.event_id, passing!.lease.event_id]));
      return Object.fromEntries(events.map((event) => [event.id === failing!.lease.event_id, event.status]));
    };
    const written = () =>
      db
        .select()
        .from(webhookEvents)
        .where(inArray(webhookEvents.id, [failed.webhookId, processed.webhookId]));

    const first = await finishUnhooked(db, [failed, stale, processed]);
    expect(first.get(processed.id)).toMatchObject({ id: passing!.lease.lease_id, hooked: false });
    expect(first.get(failed.id)).toBeNull();
    expect(first.get(stale.id)).toBeNull();
    expect(await statuses()).toEqual({ true: "received", false: "processed" });
    expect(await written()).toEqual([]);

    const second = await finishWithOutbox(db, [failed, stale]);
    // Nothing is sent to the endpoint's address: the deliverer skips a disabled endpoint.
    const disabled = await call("PATCH", `${endpointsPath(tenant)}/${endpoint.id}`, {
      token: tenant.apiKey,
      body: { enabled: false },
    });
    expect(disabled.status, disabled.text).toBe(200);
    expect(second.get(failed.id)).toMatchObject({ id: failing!.lease.lease_id, hooked: true });
    expect(second.get(stale.id)).toBeNull();
    expect(await statuses()).toEqual({ true: "fleet_error", false: "processed" });
    expect((await written()).map((row) => [row.id, row.type])).toEqual([[failed.webhookId, "event.failed"]]);
  });

  it("ends each lapsed lease once when expiring passes race a batch of its holders' reports", async () => {
    const label = uniqueLabel();
    const { fleetIds } = await busyFleets(label, 12, 1);
    const runners = await Promise.all(fleetIds.map(() => enrollRunner({ labels: [label] })));
    const held = await Promise.all(
      runners.map(async (runner) => ({ runner, lease: (await acquire(runner)).body.lease! })),
    );
    for (const { lease } of held) await expire(lease.lease_id);
    const api = await testApi();
    const db = api.database.db;
    // On PostgreSQL the three run at once (on PGlite one after another): the passes lock the fleets in id
    // order, as the batch does, before they touch a lease.
    const [reported] = await Promise.all([
      finishUnhooked(
        db,
        held.map(({ runner, lease }) => reportRow(runner, lease, "late")),
      ),
      expireLapsedLeases(api.app.services),
      expireLapsedLeases(api.app.services),
    ]);
    const ids = held.map(({ lease }) => lease.lease_id);
    const ended = await db.select().from(leases).where(inArray(leases.id, ids));
    expect(ended.filter((lease) => lease.status === "running")).toEqual([]);
    const finished = [...reported.values()].filter((answer) => answer !== null);
    expect(ended.filter((lease) => lease.status === "succeeded")).toHaveLength(finished.length);
    // One release in each lease's history: reported or expired, never both, never twice.
    const released = await db
      .select()
      .from(runnerEvents)
      .where(
        sql`${runnerEvents.eventType} = 'lease_released' and ${runnerEvents.detail}->>'lease_id' in ${ids}`,
      );
    expect(released.map((row) => (row.detail as { lease_id: string }).lease_id).sort()).toEqual(
      [...ids].sort(),
    );
  });

  it("expires a lapsed lease whose fleet was deleted, dropping what it was given", async () => {
    const label = uniqueLabel();
    const { tenant, fleetIds } = await busyFleets(label, 1, 1);
    const runner = await enrollRunner({ labels: [label] });
    const lease = (await acquire(runner)).body.lease!;
    await expire(lease.lease_id);
    const deleted = await call("DELETE", `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetIds[0]}`, {
      token: tenant.apiKey,
    });
    expect(deleted.status, deleted.text).toBe(204);
    const api = await testApi();
    await expireLapsedLeases(api.app.services);
    const [ended] = await api.database.db.select().from(leases).where(eq(leases.id, lease.lease_id));
    expect(ended).toMatchObject({ status: "expired", deliveredSealed: null });
  });

  it("lets one of racing reports win over HTTP, refusing stale tokens and repeats alike", async () => {
    const label = uniqueLabel();
    // The first fleet's lease lapses and goes to another runner: its old holder now reports with a stale token.
    const { fleetIds, events, held, lapsed, taker, current } = await heldWithLapse(label, 4, 1);
    const sent = await Promise.all([
      report(lapsed.runner, lapsed.lease, { response_text: "stale" }),
      report(taker, current, { response_text: "current" }),
      report(taker, current, { response_text: "current again" }),
      report(
        taker,
        { ...current, fencing_token: lapsed.lease.fencing_token },
        { response_text: "stale token" },
      ),
      ...held
        .slice(1)
        .map(({ runner, lease }) => report(runner, lease, { response_text: `ok ${lease.fleet_id}` })),
      ...held.slice(1).map(({ runner, lease }) => report(runner, lease, { response_text: "repeat" })),
    ]);
    const [stale, once, twice, staleToken, ...rest] = sent;
    expect(stale!.status).toBe(409);
    expect(staleToken!.status).toBe(409);
    expect([once!.status, twice!.status].sort()).toEqual([200, 409]);
    const firsts = rest.slice(0, 3);
    const repeats = rest.slice(3);
    for (let i = 0; i < 3; i++) expect([firsts[i]!.status, repeats[i]!.status].sort()).toEqual([200, 409]);
    const api = await testApi();
    const rows = await api.database.db
      .select()
      .from(fleetEvents)
      .where(sql`${fleetEvents.id} in ${fleetIds.map((id) => events.get(id)![0]!)}`);
    for (const row of rows) {
      expect(row.status).toBe("processed");
      if (row.fleetId === current.fleet_id) expect(row.responseText).toMatch(/^current/);
      else expect([`ok ${row.fleetId}`, "repeat"]).toContain(row.responseText);
    }
    const charged = await api.database.db
      .select()
      .from(charges)
      .where(sql`${charges.fleetId} in ${fleetIds}`);
    expect(charged).toHaveLength(4);
  });
});
