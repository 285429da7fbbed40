import type { OutputOf } from "@fleet/contracts";
import type { createFleet } from "@fleet/contracts/fleets/create-fleet";
import { describe, expect, it } from "vitest";
import { messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { createEntry, definition, expectRefused, list } from "./fleet-library-fixtures.ts";
import { call, seedTenant } from "./harness.ts";
import { leaseFleet, report } from "./runner-fixtures.ts";

// `requires.mcp_servers` (issue 32): stored with the requirements, copied to the fleet, carried on the lease.
describe("a definition's MCP servers", () => {
  it("are stored, copied to the fleet on install and carried on the lease", async () => {
    const tenant = await seedTenant();
    const secret = await call("POST", `/v1/workspaces/${tenant.workspaceId}/secrets`, {
      token: tenant.apiKey,
      body: { name: "TRACKER", data: { token: "tracker-token-value" } },
    });
    expect(secret.status, secret.text).toBe(201);
    const label = uniqueLabel();
    const created = await createEntry(tenant, {
      definition: definition(
        [
          "name: With MCP",
          "requires:",
          "  credentials: [{name: TRACKER, reason: Files issues}]",
          "  network_hosts: [mcp.example.com, '*.tools.example.net']",
          `  runner_labels: [${label}]`,
          "  mcp_servers:",
          "    - name: tracker",
          "      url: https://mcp.example.com/mcp",
          "      headers: {authorization: 'Bearer {{secrets.TRACKER.token}}'}",
          "      tools:",
          "        - {name: create_issue, approval: required}",
          "        - {name: list_issues}",
          "    - name: ops_2",
          "      url: http://deploy.tools.example.net:8080/mcp",
          "      approval: required",
        ].join("\n"),
      ),
    });
    expect(created.status, created.text).toBe(201);
    const fleet = await call<OutputOf<typeof createFleet>>(
      "POST",
      `/v1/workspaces/${tenant.workspaceId}/fleets`,
      { token: tenant.apiKey, body: { tenant_library_id: created.body.id } },
    );
    expect(fleet.status, fleet.text).toBe(201);
    const eventId = await messageFleet(tenant, fleet.body.fleet_id);
    const { runner, lease } = await leaseFleet(label, fleet.body.fleet_id);
    expect(lease.event_id).toBe(eventId);
    expect(lease.fleet.mcp_servers).toEqual([
      {
        name: "tracker",
        url: "https://mcp.example.com/mcp",
        approval: null,
        tool_approvals: ["create_issue"],
        headers: { authorization: "Bearer {{secrets.TRACKER.token}}" },
      },
      {
        name: "ops_2",
        url: "http://deploy.tools.example.net:8080/mcp",
        approval: "required",
        tool_approvals: [],
      },
    ]);
    expect((await report(runner, lease)).status).toBe(200);
  });

  it("is an empty list on the lease of a fleet that declares none", async () => {
    const tenant = await seedTenant();
    const label = uniqueLabel();
    const created = await createEntry(tenant, {
      definition: definition(`name: Plain\nrequires:\n  runner_labels: [${label}]`),
    });
    expect(created.status, created.text).toBe(201);
    const fleet = await call<OutputOf<typeof createFleet>>(
      "POST",
      `/v1/workspaces/${tenant.workspaceId}/fleets`,
      { token: tenant.apiKey, body: { tenant_library_id: created.body.id } },
    );
    expect(fleet.status, fleet.text).toBe(201);
    await messageFleet(tenant, fleet.body.fleet_id);
    const { runner, lease } = await leaseFleet(label, fleet.body.fleet_id);
    expect(lease.fleet.mcp_servers).toEqual([]);
    expect((await report(runner, lease)).status).toBe(200);
  });

  it("refuses a bad entry with 400 UZ-LIBRARY-010 naming it, storing nothing", async () => {
    const tenant = await seedTenant();
    const servers = (lines: string, hosts = "[mcp.example.com]") =>
      definition(`name: Bad MCP\nrequires:\n  network_hosts: ${hosts}\n  mcp_servers:\n${lines}`);
    const ok = "url: https://mcp.example.com/mcp";
    const cases: [string, RegExp][] = [
      [
        servers(`    - {name: Tracker, ${ok}}`),
        /^requires\.mcp_servers\[0\]\.name must be 1 to 32 lower-case/,
      ],
      [
        servers(`    - {name: "${"a".repeat(33)}", ${ok}}`),
        /^requires\.mcp_servers\[0\]\.name must be 1 to 32/,
      ],
      [
        servers(`    - {name: a, ${ok}}\n    - {name: a, ${ok}}`),
        /^requires\.mcp_servers\[1\]\.name names the server a again \(requires\.mcp_servers\[0\] already does\)\.$/,
      ],
      [
        servers("    - {name: a, url: ftp://mcp.example.com/mcp}"),
        /^requires\.mcp_servers\[0\]\.url must be an http or https URL, not ftp:\.$/,
      ],
      [
        servers("    - {name: a, url: not a url}"),
        /^requires\.mcp_servers\[0\]\.url must be an absolute http/,
      ],
      [
        servers("    - {name: a, url: 'https://u:p@mcp.example.com/'}"),
        /^requires\.mcp_servers\[0\]\.url must not carry a user or password/,
      ],
      [
        servers("    - {name: a, url: https://evil.example.org/mcp}"),
        /^requires\.mcp_servers\[0\]\.url names the host evil\.example\.org, which is not one of requires\.network_hosts\.$/,
      ],
      [
        servers(`    - {name: a, ${ok}, transport: sse}`),
        /^requires\.mcp_servers\[0\] has unknown key transport\.$/,
      ],
      [
        servers(`    - {name: a, ${ok}, approval: yes}`),
        /^requires\.mcp_servers\[0\]\.approval must be "required"/,
      ],
      [
        servers(`    - {name: a, ${ok}, tools: [{name: x, approve: required}]}`),
        /^requires\.mcp_servers\[0\]\.tools\[0\] has unknown key approve\.$/,
      ],
      [
        servers(`    - {name: a, ${ok}, tools: [{name: x}, {name: x}]}`),
        /^requires\.mcp_servers\[0\]\.tools\[1\] names the tool x again\.$/,
      ],
      [
        servers(`    - {name: a, ${ok}, headers: {authorization: 'Bearer {{secrets.NOPE.token}}'}}`),
        /^requires\.mcp_servers\[0\]\.headers\.authorization names the secret NOPE .*not one of requires\.credentials\.$/,
      ],
      [servers(`    - {name: a, ${ok}, headers: {"bad header": x}}`), /^requires\.mcp_servers\[0\]\.headers/],
      [servers("    - {name: a}"), /^requires\.mcp_servers\[0\]\.url is required\.$/],
      [
        servers("    - null"),
        /^requires\.mcp_servers\[0\] must be \{name, url, approval\?, headers\?, tools\?\}\.$/,
      ],
      [servers("    a: b"), /^requires\.mcp_servers must be a list of \{name, url/],
      [servers(`    - {name: "a\\0", ${ok}}`), /^requires\.mcp_servers\[0\]\.name must be 1 to 32/],
      [
        servers('    - {name: a, url: "https://mcp.example.com/\\ud800"}'),
        /^requires\.mcp_servers\[0\]\.url must be well-formed Unicode/,
      ],
      [
        servers(`    - {name: a, ${ok}, headers: {x-key: "\\ud800"}}`),
        /^requires\.mcp_servers\[0\]\.headers\.x-key must be well-formed Unicode/,
      ],
    ];
    await expectRefused(tenant, cases);
    expect((await list(tenant)).body.items.filter((item) => item.visibility === "tenant")).toEqual([]);
  });

  it("keeps the servers under their ceiling (413 UZ-LIBRARY-011)", async () => {
    const tenant = await seedTenant();
    const entries = Array.from(
      { length: 17 },
      (_, i) => `    - {name: s${i}, url: https://mcp.example.com/}`,
    );
    const response = await createEntry(tenant, {
      definition: definition(
        `name: Many\nrequires:\n  network_hosts: [mcp.example.com]\n  mcp_servers:\n${entries.join("\n")}`,
      ),
    });
    expect(response.status, response.text).toBe(413);
    expect(response.body.error_code).toBe("UZ-LIBRARY-011");
    expect(response.body.detail).toMatch(/^requires\.mcp_servers must hold at most 16 servers/);
  });
});
