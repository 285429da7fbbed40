import type { OutputOf } from "@fleet/contracts";
import type { listLibraries } from "@fleet/contracts/fleet-libraries/list-libraries";
import type { getMe } from "@fleet/contracts/users/get-me";
import type { listWorkspaces } from "@fleet/contracts/workspaces/list-workspaces";
import { fleetLibraries } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { firstRun } from "../src/services/tenants/first-run.ts";
import { call, testApi, useIsolatedApi } from "./harness.ts";

// First run acts on an empty database: this file has one of its own.
useIsolatedApi();

describe("first run", () => {
  it("creates the first tenant and seeds the platform library's demo fleet, once", async () => {
    const api = await testApi();
    // As `pnpm start` runs it: in dev mode.
    const services = { ...api.app.services, config: { ...api.app.services.config, devMode: true } };
    const first = await firstRun(services, { ownerEmail: "owner@example.test", tenantName: "Default" });
    expect(first.created?.api_key).toMatch(/^agt_t/);
    const again = await firstRun(services, { ownerEmail: "owner@example.test", tenantName: "Default" });
    expect(again.created).toBeNull();
    const entries = await api.database.db.select().from(fleetLibraries);
    expect(entries.map((entry) => [entry.name, entry.visibility])).toEqual([["Echo", "platform"]]);

    // The owner sees it in their workspace's library and can install it once the credential it asks for exists.
    const me = await call<OutputOf<typeof getMe>>("GET", "/v1/users/me", { token: first.created!.api_key });
    const workspaces = await call<OutputOf<typeof listWorkspaces>>("GET", "/v1/tenants/me/workspaces", {
      token: first.created!.api_key,
    });
    expect(me.status).toBe(200);
    const workspace = workspaces.body.items[0]!.id;
    const library = await call<OutputOf<typeof listLibraries>>(
      "GET",
      `/v1/workspaces/${workspace}/fleet-libraries`,
      { token: first.created!.api_key },
    );
    expect(library.body.items).toHaveLength(1);
    expect(Object.keys(library.body.items[0]!.required_credentials_reasons)).toEqual(["ECHO_GREETING"]);

    // A developer alone on their machine answers the gates of the messages they send.
    const policy = await call("GET", `/v1/workspaces/${workspace}/approval-policy`, {
      token: first.created!.api_key,
    });
    expect(policy.body).toMatchObject({ allow_self_approval: true, rules: [] });

    // In dev mode the demo fleet is installed there too, with its credential, and every start names it
    // and the workspace: what the start's curl line messages.
    expect(again.workspace).toEqual({ id: workspace, name: workspaces.body.items[0]!.name });
    expect(again.demo_fleet).toMatchObject({ name: "Echo" });
    const sent = await call("POST", `/v1/workspaces/${workspace}/fleets/${again.demo_fleet!.id}/messages`, {
      token: first.created!.api_key,
      body: { message: "Hello" },
    });
    expect(sent.status).toBe(202);
  });
});
