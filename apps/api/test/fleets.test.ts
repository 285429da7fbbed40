import type { OutputOf } from "@fleet/contracts";
import type { createFleet } from "@fleet/contracts/fleets/create-fleet";
import type { getFleet } from "@fleet/contracts/fleets/get-fleet";
import type { listFleets } from "@fleet/contracts/fleets/list-fleets";
import { eq, schedules } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { installFleet, messageFleet, seedLibraryEntry } from "./fleet-fixtures.ts";
import { call, seedMember, seedTenant, testApi } from "./harness.ts";

type FleetView = OutputOf<typeof getFleet>;

describe("fleets", () => {
  it("installs from a platform entry, records its trigger schedules, lists and reads the fleet", async () => {
    const tenant = await seedTenant();
    const trigger = { cron: "0 9 * * 1-5", timezone: "Europe/Paris", message: "Morning report" };
    const entry = await seedLibraryEntry({ name: "reporter", triggers: [trigger] });
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets`;
    const created = await call<OutputOf<typeof createFleet>>("POST", base, {
      token: tenant.apiKey,
      body: { platform_library_id: entry },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: "reporter", status: "active" });
    expect(created.body.schedule_ids).toHaveLength(1);

    const api = await testApi();
    const rows = await api.database.db
      .select()
      .from(schedules)
      .where(eq(schedules.fleetId, created.body.fleet_id));
    expect(rows).toMatchObject([{ source: "trigger", ...trigger, status: "active", once: false }]);

    const list = await call<OutputOf<typeof listFleets>>("GET", base, {
      token: tenant.apiKey,
    });
    expect(list.body.total).toBe(1);
    expect(list.body.items[0]).toMatchObject({
      id: created.body.fleet_id,
      name: "reporter",
      status: "active",
      events_processed: 0,
      budget_used_nanos: 0,
    });

    const read = await call<FleetView>("GET", `${base}/${created.body.fleet_id}`, { token: tenant.apiKey });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      platform_library_id: entry,
      tenant_library_id: null,
      triggers: [trigger],
    });
    expect(read.headers.get("etag")).toBe(read.body.etag);
  });

  it("refuses an install that lacks a required credential with 424 naming it, then installs once it is stored", async () => {
    const tenant = await seedTenant();
    const entry = await seedLibraryEntry({ credentials: ["GITHUB_TOKEN", "SLACK_TOKEN"] });
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets`;
    await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
      token: tenant.apiKey,
      body: { name: "SLACK_TOKEN", data: { token: "x" } },
    });
    const refused = await call("POST", base, { token: tenant.apiKey, body: { platform_library_id: entry } });
    expect(refused.status).toBe(424);
    expect(refused.body).toMatchObject({
      error_code: "UZ-BUNDLE-003",
      missing_credentials: ["GITHUB_TOKEN"],
      missing_secrets: ["GITHUB_TOKEN"], // the member the spec's clients read
    });
    expect((await call<OutputOf<typeof listFleets>>("GET", base, { token: tenant.apiKey })).body.total).toBe(
      0,
    );

    await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
      token: tenant.apiKey,
      body: { name: "GITHUB_TOKEN", data: { token: "y" } },
    });
    const installed = await call("POST", base, {
      token: tenant.apiKey,
      body: { platform_library_id: entry },
    });
    expect(installed.status).toBe(201);
  });

  it("takes exactly one library id, and refuses unknown entries and another workspace's entry", async () => {
    const tenant = await seedTenant();
    const other = await seedTenant();
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets`;
    const platform = await seedLibraryEntry();
    const mine = await seedLibraryEntry({ owner: tenant });
    const theirs = await seedLibraryEntry({ owner: other });

    const both = await call("POST", base, {
      token: tenant.apiKey,
      body: { platform_library_id: platform, tenant_library_id: mine },
    });
    expect(both.status).toBe(400);
    expect(both.body.error_code).toBe("UZ-REQ-001");
    expect((await call("POST", base, { token: tenant.apiKey, body: {} })).body.error_code).toBe("UZ-REQ-001");

    const unknownPlatform = await call("POST", base, {
      token: tenant.apiKey,
      body: { platform_library_id: mine },
    });
    expect(unknownPlatform.status).toBe(404);
    expect(unknownPlatform.body.error_code).toBe("UZ-BUNDLE-001");
    const foreign = await call("POST", base, { token: tenant.apiKey, body: { tenant_library_id: theirs } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("UZ-BUNDLE-002");

    const own = await call<OutputOf<typeof createFleet>>("POST", base, {
      token: tenant.apiKey,
      body: { tenant_library_id: mine, name: "mine" },
    });
    expect(own.status).toBe(201);
    expect(own.body.name).toBe("mine");
  });

  it("gives one fleet to concurrent installs with one name; the rest are 409 name_exists", async () => {
    const tenant = await seedTenant();
    const entry = await seedLibraryEntry();
    const attempts = await Promise.all(
      Array.from({ length: 12 }, () =>
        call("POST", `/v1/workspaces/${tenant.workspaceId}/fleets`, {
          token: tenant.apiKey,
          body: { platform_library_id: entry, name: "only-one" },
        }),
      ),
    );
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = attempts.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(11);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ error_code: "UZ-FLEET-002", current_state: "name_exists" });
    }
    const list = await call<OutputOf<typeof listFleets>>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleets`,
      {
        token: tenant.apiKey,
      },
    );
    expect(list.body.total).toBe(1);
  });

  it("pauses, resumes, stops and kills a fleet by the allowed moves, with If-Match guarding changes", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const first = await call<FleetView>("GET", path, { token: tenant.apiKey });

    const paused = await call<FleetView>("PATCH", path, {
      token: tenant.apiKey,
      headers: { "if-match": first.body.etag },
      body: { status: "paused" },
    });
    expect(paused.status).toBe(200);
    expect(paused.body.status).toBe("paused");
    expect(paused.body.etag).not.toBe(first.body.etag);

    const stale = await call("PATCH", path, {
      token: tenant.apiKey,
      headers: { "if-match": first.body.etag },
      body: { status: "active" },
    });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ error_code: "UZ-FLEET-004", etag: paused.body.etag });
    expect((await call<FleetView>("GET", path, { token: tenant.apiKey })).body.status).toBe("paused");

    const message = await call("POST", `${path}/messages`, { token: tenant.apiKey, body: { message: "hi" } });
    expect(message.status).toBe(409);
    expect(message.body).toMatchObject({ error_code: "UZ-FLEET-003", current_state: "paused" });

    for (const status of ["active", "stopped", "active", "killed"]) {
      const moved = await call<FleetView>("PATCH", path, { token: tenant.apiKey, body: { status } });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.status).toBe(status);
    }
    const revived = await call("PATCH", path, { token: tenant.apiKey, body: { status: "active" } });
    expect(revived.status).toBe(409);
    expect(revived.body).toMatchObject({ error_code: "UZ-FLEET-003", current_state: "killed" });
    const killedMessage = await call("POST", `${path}/messages`, {
      token: tenant.apiKey,
      body: { message: "hi" },
    });
    expect(killedMessage.body).toMatchObject({ error_code: "UZ-FLEET-003", current_state: "killed" });

    const bad = await call("PATCH", path, { token: tenant.apiKey, body: { status: "installing" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("UZ-REQ-001");
  });

  it("renames a fleet, refusing a name another fleet holds", async () => {
    const tenant = await seedTenant();
    await installFleet(tenant, "taken");
    const fleetId = await installFleet(tenant, "mine");
    const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const clash = await call("PATCH", path, { token: tenant.apiKey, body: { name: "taken" } });
    expect(clash.status).toBe(409);
    expect(clash.body.error_code).toBe("UZ-FLEET-002");
    const renamed = await call<FleetView>("PATCH", path, { token: tenant.apiKey, body: { name: "renamed" } });
    expect(renamed.body.name).toBe("renamed");
  });

  it("deletes a fleet with fleet:admin only, taking its events with it", async () => {
    const tenant = await seedTenant();
    const fleetId = await installFleet(tenant);
    const eventId = await messageFleet(tenant, fleetId);
    const path = `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`;
    const writer = await seedMember(tenant, ["fleet:write"]);
    const refused = await call("DELETE", path, { token: writer.token });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("fleet:admin");

    expect((await call("DELETE", path, { token: tenant.apiKey })).status).toBe(204);
    const gone = await call("GET", path, { token: tenant.apiKey });
    expect(gone.status).toBe(404);
    expect(gone.body.error_code).toBe("UZ-FLEET-001");
    expect((await call("DELETE", path, { token: tenant.apiKey })).body.error_code).toBe("UZ-FLEET-001");
    const event = await call("GET", `${path}/events/${eventId}`, { token: tenant.apiKey });
    expect(event.status).toBe(404);
  });

  it("pages the fleet list newest first by cursor, refusing the retired cursor parameter", async () => {
    const tenant = await seedTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await installFleet(tenant, `fleet-${i}`));
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets`;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&starting_after=${cursor}` : "?limit=2";
      const page = await call<OutputOf<typeof listFleets>>("GET", base + query, {
        token: tenant.apiKey,
      });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((item) => item.id));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual([...ids].reverse());
    const retired = await call("GET", `${base}?cursor=abc`, { token: tenant.apiKey });
    expect(retired.status).toBe(400);
    expect(retired.body.error_code).toBe("UZ-REQ-001");
  });
  it("filters the fleet list by status set and by a name it contains, counting the filtered set", async () => {
    const tenant = await seedTenant();
    const alpha = await installFleet(tenant, "Billing_Alpha");
    const beta = await installFleet(tenant, "billing-beta");
    const gamma = await installFleet(tenant, "Triage 100%");
    const base = `/v1/workspaces/${tenant.workspaceId}/fleets`;
    const paused = await call("PATCH", `${base}/${beta}`, {
      token: tenant.apiKey,
      body: { status: "paused" },
    });
    expect(paused.status, paused.text).toBe(200);
    type FleetPage = OutputOf<typeof listFleets>;
    const list = async (query: string) => {
      const page = await call<FleetPage>("GET", `${base}?${query}`, { token: tenant.apiKey });
      expect(page.status, page.text).toBe(200);
      return { ids: page.body.items.map((item) => item.id), total: page.body.total };
    };
    expect(await list("name=BILLING")).toEqual({ ids: [beta, alpha], total: 2 });
    expect(await list("status=paused")).toEqual({ ids: [beta], total: 1 });
    expect(await list("status=active,stopped")).toEqual({ ids: [gamma, alpha], total: 2 });
    expect(await list("status=active&name=billing")).toEqual({ ids: [alpha], total: 1 });
    // LIKE's wildcards are matched as themselves.
    expect(await list("name=_")).toEqual({ ids: [alpha], total: 1 });
    expect(await list(`name=${encodeURIComponent("100%")}`)).toEqual({ ids: [gamma], total: 1 });
    expect(await list("name=%25")).toEqual({ ids: [gamma], total: 1 });
    expect(await list("name=nothing-like-this")).toEqual({ ids: [], total: 0 });

    // An empty value (`?status=`) means "not given", as for every query parameter; blanks are refused.
    for (const bad of ["status=running", "status=active,,paused", "name=%20%20", `name=${"x".repeat(101)}`]) {
      const refused = await call("GET", `${base}?${bad}`, { token: tenant.apiKey });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error_code).toBe("UZ-REQ-001");
    }
    const first = await call<FleetPage>("GET", `${base}?limit=1&name=billing`, { token: tenant.apiKey });
    const replayed = await call("GET", `${base}?limit=1&starting_after=${first.body.next_cursor}`, {
      token: tenant.apiKey,
    });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error_code).toBe("UZ-REQ-001");
    const next = await call<FleetPage>(
      "GET",
      `${base}?limit=1&name=billing&starting_after=${first.body.next_cursor}`,
      {
        token: tenant.apiKey,
      },
    );
    expect(next.body.items.map((item) => item.id)).toEqual([alpha]);
  });
});
