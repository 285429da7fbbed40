import type { OutputOf } from "@fleet/contracts";
import type { getFleet } from "@fleet/contracts/fleets/get-fleet";
import type { listSchedules } from "@fleet/contracts/schedules/list-schedules";
import { and, eq, type LibraryTrigger, schedules } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { installFromEntry, seedLibraryEntry } from "./fleet-fixtures.ts";
import { call, seedTenant, type Tenant, testApi } from "./harness.ts";

type FleetView = OutputOf<typeof getFleet>;

const yaml = (value: string) => JSON.stringify(value);

function triggerLines(triggers: LibraryTrigger[]): string {
  if (triggers.length === 0) return "triggers: []\n";
  return `triggers:\n${triggers
    .map((t) => `  - cron: ${yaml(t.cron)}\n    timezone: ${t.timezone}\n    message: ${yaml(t.message)}\n`)
    .join("")}`;
}

function definition(triggers: LibraryTrigger[], extra = "", body = "Do the new thing."): string {
  return `---\nname: Renamed in the file\n${triggerLines(triggers)}${extra}---\n${body}\n`;
}

const A = { cron: "0 9 * * *", timezone: "UTC", message: "A" };
const B = { cron: "0 10 * * *", timezone: "Europe/Paris", message: "B" };
const C = { cron: "0 11 * * *", timezone: "UTC", message: "C" };
const D = { cron: "*/30 * * * *", timezone: "UTC", message: "D" };

/** The fleet's trigger schedules that are not on their way out, by message. */
async function triggerSchedules(fleetId: string) {
  const api = await testApi();
  const rows = await api.database.db
    .select()
    .from(schedules)
    .where(and(eq(schedules.fleetId, fleetId), eq(schedules.source, "trigger")));
  return new Map(rows.filter((row) => row.status !== "deleting").map((row) => [row.message, row]));
}

async function installed(tenant: Tenant, triggers: LibraryTrigger[]) {
  const fleetId = await installFromEntry(tenant, await seedLibraryEntry({ triggers }));
  return { fleetId, path: `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}` };
}

describe("changing a fleet's definition", () => {
  it("replaces it with source_markdown and brings the trigger schedules in line, keeping overrides", async () => {
    const tenant = await seedTenant();
    const { fleetId, path } = await installed(tenant, [A, B, C]);
    const before = await triggerSchedules(fleetId);
    expect([...before.keys()].sort()).toEqual(["A", "B", "C"]);
    const overridden = await call("PATCH", `${path}/schedules/${before.get("B")!.id}`, {
      token: tenant.apiKey,
      body: { status: "paused" },
    });
    expect(overridden.status, overridden.text).toBe(200);
    const read = await call<FleetView>("GET", path, { token: tenant.apiKey });

    const changedA = { ...A, cron: "15 9 * * 1-5" };
    const patched = await call<FleetView>("PATCH", path, {
      token: tenant.apiKey,
      headers: { "if-match": read.body.etag },
      body: {
        source_markdown: definition([B, changedA, D], "requires:\n  tools: [shell.run]\n"),
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers.get("etag")).toBe(patched.body.etag);
    expect(patched.body.etag).not.toBe(read.body.etag);
    expect(patched.body).toMatchObject({
      name: read.body.name, // the file's name does not rename the fleet
      instructions: "Do the new thing.",
      triggers: [B, changedA, D],
      requirements: { credentials: [], tools: ["shell.run"] },
    });

    const after = await triggerSchedules(fleetId);
    expect([...after.keys()].sort()).toEqual(["A", "B", "D"]);
    // B moved from position 1 to 0: the same schedule, its override kept.
    expect(after.get("B")).toMatchObject({ id: before.get("B")!.id, triggerIndex: 0 });
    expect(after.get("B")!.override).toMatchObject({ status: "paused" });
    // A changed in place: the same schedule with the new recipe.
    expect(after.get("A")).toMatchObject({ id: before.get("A")!.id, cron: changedA.cron, triggerIndex: 1 });
    expect(after.get("A")!.generation).toBeGreaterThan(before.get("A")!.generation);
    expect(after.get("D")).toMatchObject({ triggerIndex: 2, status: "active" });
    // C is gone from the document, so its schedule goes too (unregistered, then removed).
    const listed = await call<OutputOf<typeof listSchedules>>("GET", `${path}/schedules`, {
      token: tenant.apiKey,
    });
    expect(listed.body.items.map((item) => item.schedule_id)).not.toContain(before.get("C")!.id);

    // The same definition again changes nothing, not even the etag.
    const again = await call<FleetView>("PATCH", path, {
      token: tenant.apiKey,
      body: { source_markdown: definition([B, changedA, D], "requires:\n  tools: [shell.run]\n") },
    });
    expect(again.body.etag).toBe(patched.body.etag);
  });

  it("leaves deleted an unchanged trigger's schedule a person deleted, and keeps to the 32-schedule cap", async () => {
    const tenant = await seedTenant();
    const { fleetId, path } = await installed(tenant, [A, B]);
    const before = await triggerSchedules(fleetId);
    const deleted = await call("DELETE", `${path}/schedules/${before.get("A")!.id}`, {
      token: tenant.apiKey,
    });
    expect(deleted.status).toBe(204);
    const patched = await call("PATCH", path, {
      token: tenant.apiKey,
      body: { trigger_markdown: `---\n${triggerLines([A, { ...B, message: "B2" }])}---\n` },
    });
    expect(patched.status, patched.text).toBe(200);
    const after = await triggerSchedules(fleetId);
    expect([...after.keys()]).toEqual(["B2"]);
    expect(after.get("B2")!.id).toBe(before.get("B")!.id); // edited by message, paired by its timing

    for (let i = 0; i < 31; i++) {
      const created = await call("POST", `${path}/schedules`, {
        token: tenant.apiKey,
        body: { cron: "0 3 * * *", message: `person ${i}` },
      });
      expect(created.status, created.text).toBe(201);
    }
    const over = await call("PATCH", path, {
      token: tenant.apiKey,
      body: { trigger_markdown: `---\n${triggerLines([{ ...B, message: "B2" }, C])}---\n` },
    });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ error_code: "UZ-SCHED-003", current_state: "limit_reached" });
    expect([...(await triggerSchedules(fleetId)).keys()]).toEqual(["B2"]);
  });

  it("replaces the triggers alone with trigger_markdown", async () => {
    const tenant = await seedTenant();
    const { fleetId, path } = await installed(tenant, [A]);
    const read = await call<FleetView>("GET", path, { token: tenant.apiKey });
    const patched = await call<FleetView>("PATCH", path, {
      token: tenant.apiKey,
      body: { trigger_markdown: `---\n${triggerLines([A, D])}---\n# Notes for people\n` },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ instructions: read.body.instructions, triggers: [A, D] });
    expect([...(await triggerSchedules(fleetId)).keys()].sort()).toEqual(["A", "D"]);

    const cleared = await call<FleetView>("PATCH", path, {
      token: tenant.apiKey,
      body: { trigger_markdown: "---\ntriggers: []\n---\n" },
    });
    expect(cleared.body.triggers).toEqual([]);
    expect((await triggerSchedules(fleetId)).size).toBe(0);

    const extraKey = await call("PATCH", path, {
      token: tenant.apiKey,
      body: { trigger_markdown: `---\nname: x\n${triggerLines([A])}---\n` },
    });
    expect(extraKey.status).toBe(400);
    expect(extraKey.body).toMatchObject({
      error_code: "UZ-LIBRARY-010",
      detail: expect.stringContaining("name"),
    });
    const twice = await call("PATCH", path, {
      token: tenant.apiKey,
      body: { source_markdown: definition([A]), trigger_markdown: `---\n${triggerLines([D])}---\n` },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error_code).toBe("UZ-LIBRARY-010");
  });

  it("refuses what an import refuses, a missing credential and a stale If-Match, changing nothing", async () => {
    const tenant = await seedTenant();
    const { fleetId, path } = await installed(tenant, [A]);
    const read = await call<FleetView>("GET", path, { token: tenant.apiKey });
    const send = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      call("PATCH", path, { token: tenant.apiKey, body, headers });

    const malformed = await send({ source_markdown: "no front matter" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_code).toBe("UZ-LIBRARY-010");
    const badCron = await send({
      trigger_markdown: `---\n${triggerLines([{ ...A, cron: "61 * * * *" }])}---\n`,
    });
    expect(badCron.status).toBe(400);
    expect(badCron.body.error_code).toBe("UZ-LIBRARY-010");
    const seventeen = Array.from({ length: 17 }, (_, i) => ({ ...A, message: `m${i}` }));
    const tooMany = await send({ trigger_markdown: `---\n${triggerLines(seventeen)}---\n` });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error_code).toBe("UZ-LIBRARY-011");
    const huge = await send({ source_markdown: definition([A], "", "x".repeat(300 * 1024)) });
    expect(huge.status).toBe(413);
    expect(huge.body.error_code).toBe("UZ-LIBRARY-011");
    const needsSecret = await send({
      source_markdown: definition(
        [A],
        "requires:\n  credentials:\n    - name: GITHUB_TOKEN\n      reason: Reads issues.\n",
      ),
    });
    expect(needsSecret.status).toBe(424);
    expect(needsSecret.body).toMatchObject({
      error_code: "UZ-BUNDLE-003",
      missing_credentials: ["GITHUB_TOKEN"],
      missing_secrets: ["GITHUB_TOKEN"],
    });

    const changed = await send(
      { trigger_markdown: `---\n${triggerLines([D])}---\n` },
      { "if-match": read.body.etag },
    );
    expect(changed.status, changed.text).toBe(200);
    const stale = await send(
      { trigger_markdown: `---\n${triggerLines([A])}---\n` },
      { "if-match": read.body.etag },
    );
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({
      error_code: "UZ-FLEET-004",
      etag: (changed.body as { etag: string }).etag,
    });

    const now = await call<FleetView>("GET", path, { token: tenant.apiKey });
    expect(now.body.triggers).toEqual([D]);
    expect(now.body.instructions).toBe(read.body.instructions);
    expect([...(await triggerSchedules(fleetId)).keys()]).toEqual(["D"]);

    expect((await send({ status: "killed" })).status).toBe(200);
    const killed = await send({ trigger_markdown: `---\n${triggerLines([A])}---\n` });
    expect(killed.status).toBe(409);
    expect(killed.body).toMatchObject({ error_code: "UZ-FLEET-003", current_state: "killed" });
  });
});
