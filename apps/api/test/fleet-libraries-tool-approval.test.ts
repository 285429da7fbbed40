import type { OutputOf } from "@fleet/contracts";
import type { getFleet } from "@fleet/contracts/fleets/get-fleet";
import { fleetLibraries, type LibraryRequirements } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { newId } from "../src/runtime/ids.ts";
import { installFleet, installFromEntry } from "./fleet-fixtures.ts";
import { createEntry, definition, expectRefused, type Item, list } from "./fleet-library-fixtures.ts";
import { call, seedTenant, type Tenant, testApi } from "./harness.ts";

type Fleet = OutputOf<typeof getFleet>;

const readFleet = (tenant: Tenant, fleetId: string) =>
  call<Fleet>("GET", `/v1/workspaces/${tenant.workspaceId}/fleets/${fleetId}`, { token: tenant.apiKey });

// `requires.tools` entries as objects `{name, approval}` beside plain names (issue 32, gated tools).
describe("a definition's tool entries with approval", () => {
  it("accepts objects beside plain names, keeping the names in the requirements", async () => {
    const tenant = await seedTenant();
    const created = await createEntry(tenant, {
      definition: definition(
        [
          "name: Gated",
          "requires:",
          "  tools:",
          "    - memory_write",
          "    - name: http_request",
          "      approval: required",
          "    - {name: schedule_create}",
        ].join("\n"),
      ),
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.requirements.tools).toEqual(["memory_write", "http_request", "schedule_create"]);
    expect(created.body.requirements.tool_approvals).toEqual(["http_request"]);
  });

  it("reads the approval marks back on the entry and on a fleet installed from it", async () => {
    const tenant = await seedTenant();
    const created = await createEntry(tenant, {
      definition: definition(
        "name: Marked\nrequires:\n  tools:\n    - memory_write\n    - {name: http_request, approval: required}",
      ),
    });
    expect(created.status, created.text).toBe(201);
    const entry = await call<Item>(
      "GET",
      `/v1/workspaces/${tenant.workspaceId}/fleet-libraries/${created.body.id}`,
      { token: tenant.apiKey },
    );
    expect(entry.status, entry.text).toBe(200);
    expect(entry.body.requirements.tool_approvals).toEqual(["http_request"]);
    const listed = (await list(tenant)).body.items.find((item) => item.id === created.body.id);
    expect(listed?.requirements.tool_approvals).toEqual(["http_request"]);

    const installed = await call<{ fleet_id: string }>(
      "POST",
      `/v1/workspaces/${tenant.workspaceId}/fleets`,
      {
        token: tenant.apiKey,
        body: { tenant_library_id: created.body.id },
      },
    );
    expect(installed.status, installed.text).toBe(201);
    const fleet = await readFleet(tenant, installed.body.fleet_id);
    expect(fleet.body.requirements).toMatchObject({
      tools: ["memory_write", "http_request"],
      tool_approvals: ["http_request"],
    });
  });

  it("reads stored blast radii and MCP servers back, never a server's headers", async () => {
    const tenant = await seedTenant();
    const api = await testApi();
    const id = newId();
    const requirements = {
      credentials: [],
      tools: ["http_request"],
      tool_approvals: ["http_request"],
      tool_blast_radius: { http_request: "posts to the status board" },
      network_hosts: ["mcp.example.com"],
      runner_labels: [],
      mcp_servers: [
        {
          name: "notes",
          url: "https://mcp.example.com/mcp",
          approval: null,
          tool_approvals: ["write_note"],
          headers: { authorization: "Bearer {{secrets.NOTES.token}}" },
        },
      ],
    };
    await api.database.db.insert(fleetLibraries).values({
      id,
      visibility: "platform",
      name: `marked-${id.slice(-8)}`,
      description: "A fleet for tests",
      instructions: "Answer.",
      triggers: [],
      requirements: requirements as LibraryRequirements,
      credentialReasons: {},
      sourceRef: "upload:sha256:test",
      createdAt: Date.now(),
    });
    const fleet = await readFleet(tenant, await installFromEntry(tenant, id));
    expect(fleet.status, fleet.text).toBe(200);
    expect(fleet.body.requirements).toMatchObject({
      tool_approvals: ["http_request"],
      tool_blast_radius: { http_request: "posts to the status board" },
      mcp_servers: [
        { name: "notes", url: "https://mcp.example.com/mcp", approval: null, tool_approvals: ["write_note"] },
      ],
    });
    expect(fleet.text).not.toContain("secrets.NOTES");
  });

  it("leaves the marks out of a fleet stored before tool entries had them", async () => {
    const tenant = await seedTenant();
    const fleet = await readFleet(tenant, await installFleet(tenant));
    expect(fleet.status, fleet.text).toBe(200);
    expect(fleet.body.requirements.tool_approvals).toBeUndefined();
  });

  it("refuses a bad entry with 400 UZ-LIBRARY-010 naming it, storing nothing", async () => {
    const tenant = await seedTenant();
    const tools = (lines: string) => definition(`name: Bad tool\nrequires:\n  tools:\n${lines}`);
    const cases: [string, RegExp][] = [
      [
        tools("    - a\n    - {name: b, approve: required}"),
        /^requires\.tools\[1\] has unknown key approve\.$/,
      ],
      [
        tools("    - {name: b, approval: optional}"),
        /^requires\.tools\[0\]\.approval must be "required" \(or left out\)\.$/,
      ],
      [tools("    - {name: b, approval: true}"), /^requires\.tools\[0\]\.approval must be "required"/],
      [
        tools("    - http_request\n    - {name: http_request, approval: required}"),
        /^requires\.tools\[1\] names the tool http_request again \(requires\.tools\[0\] already does\)\.$/,
      ],
      [tools("    - {approval: required}"), /^requires\.tools\[0\]\.name is required\.$/],
      [tools("    - {name: 'two words'}"), /^requires\.tools\[0\]\.name must be a non-empty name/],
      [tools("    - 12"), /^requires\.tools\[0\] must be a tool name or \{name, approval, blast_radius\}\.$/],
      [
        tools("    - [a, b]"),
        /^requires\.tools\[0\] must be a tool name or \{name, approval, blast_radius\}\.$/,
      ],
    ];
    await expectRefused(tenant, cases);
    expect((await list(tenant)).body.items.filter((item) => item.visibility === "tenant")).toEqual([]);
  });

  it("keeps an object's name under the tool-name ceiling (413 UZ-LIBRARY-011)", async () => {
    const tenant = await seedTenant();
    const response = await createEntry(tenant, {
      definition: definition(
        `name: n\nrequires:\n  tools:\n    - {name: ${"t".repeat(201)}, approval: required}`,
      ),
    });
    expect(response.status).toBe(413);
    expect(response.body.error_code).toBe("UZ-LIBRARY-011");
    expect(response.body.detail).toMatch(/^requires\.tools\[0\]\.name must be at most 200 bytes/);
  });
});
