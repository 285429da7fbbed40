import type { OutputOf, Problem } from "@fleet/contracts";
import type { listLibraries } from "@fleet/contracts/fleet-libraries/list-libraries";
import type { getMe } from "@fleet/contracts/users/get-me";
import type { listWorkspaces } from "@fleet/contracts/workspaces/list-workspaces";
import { eq, fleetLibraries } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { getTenantProvider } from "../src/services/providers/get-tenant-provider.ts";
import { firstRun } from "../src/services/tenants/first-run.ts";
import { call, seedTenant, testApi, useIsolatedApi } from "./harness.ts";

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
    // In dev mode the demo agent fleet too (its status board is local: never offered on a deployment).
    expect(entries.map((entry) => [entry.name, entry.visibility]).sort()).toEqual([
      ["Echo", "platform"],
      ["Status Board Agent", "platform"],
    ]);

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
    const echo = library.body.items.find((item) => item.name === "Echo");
    expect(Object.keys(echo!.required_credentials_reasons)).toEqual(["ECHO_GREETING"]);
    const agent = library.body.items.find((item) => item.name === "Status Board Agent");
    expect(agent?.requirements).toMatchObject({
      tools: ["http_request", "memory_write"],
      network_hosts: ["127.0.0.1"],
      credentials: [],
    });
    const [definition] = await api.database.db
      .select({ requirements: fleetLibraries.requirements })
      .from(fleetLibraries)
      .where(eq(fleetLibraries.name, "Status Board Agent"));
    expect(definition?.requirements).toMatchObject({ tool_approvals: ["memory_write"] });

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

    // And the demo agent fleet is installed beside it; every start names it.
    expect(again.agent_demo_fleet).toMatchObject({ name: "Status Board Agent" });
    const fleet = await call<{ status: string }>(
      "GET",
      `/v1/workspaces/${workspace}/fleets/${again.agent_demo_fleet!.id}`,
      { token: first.created!.api_key },
    );
    expect(fleet.body).toMatchObject({ status: "active" });
  });

  it("says the scripted demo model stands in where no provider is set, in dev mode with its URL", async () => {
    const api = await testApi();
    const tenant = await seedTenant();
    const config = api.app.services.config;
    const scripted = {
      ...api.app.services,
      config: {
        ...config,
        devMode: true,
        modelGateway: { ...config.modelGateway, devScriptedModelUrl: "http://127.0.0.1:8091/model/v1" },
      },
    };
    const refusal = await getTenantProvider(scripted, tenant.tenantId).catch((error: Problem) => error);
    expect(refusal).toMatchObject({
      code: "UZ-PROVIDER-003",
      extras: { current_state: "scripted_demo_model" },
    });
    // Without it (any deployment), the plain answer.
    const plain = await getTenantProvider(api.app.services, tenant.tenantId).catch((error: Problem) => error);
    expect(plain).toMatchObject({ code: "UZ-PROVIDER-003", extras: {} });
  });
});
