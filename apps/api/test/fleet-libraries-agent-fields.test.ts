import { describe, expect, it } from "vitest";
import { putPolicy } from "./approval-policy-fixtures.ts";
import { messageFleet, uniqueLabel } from "./fleet-fixtures.ts";
import { createEntry, definition } from "./fleet-library-fixtures.ts";
import { call, seedTenant, type Tenant } from "./harness.ts";
import { type HeldLease, leaseFleet } from "./runner-fixtures.ts";

// Issue 32: a tool entry's blast_radius and the definition's agent.max_steps reach the lease; tools the
// workspace's approval policy names (match.gate_kinds holding tool.<name>) are gated like marked ones.

/** Installs a fleet from a tenant entry of `frontMatter` (plus a label of its own), messages it, leases it. */
async function leaseOf(owner: Tenant, frontMatter: string[]): Promise<HeldLease> {
  const label = uniqueLabel();
  const entry = await createEntry(owner, {
    definition: definition([...frontMatter, `  runner_labels: [${label}]`].join("\n")),
  });
  expect(entry.status, entry.text).toBe(201);
  const fleet = await call<{ fleet_id: string }>("POST", `/v1/workspaces/${owner.workspaceId}/fleets`, {
    token: owner.apiKey,
    body: { tenant_library_id: entry.body.id },
  });
  expect(fleet.status, fleet.text).toBe(201);
  await messageFleet(owner, fleet.body.fleet_id, "go");
  return (await leaseFleet(label, fleet.body.fleet_id)).lease;
}

const agentFleet = [
  "name: Deployer",
  "agent:",
  "  max_steps: 40",
  "requires:",
  "  tools:",
  "    - memory_write",
  "    - name: http_request",
  "      approval: required",
  "      blast_radius: '  Production deploys of the shop  '",
  "    - {name: schedule_create, blast_radius: New schedules}",
];

describe("a definition's agent fields", () => {
  it("reach the lease: blast radii by tool, the step cap, the marked tools", async () => {
    const lease = await leaseOf(await seedTenant(), agentFleet);
    expect(lease.fleet).toMatchObject({
      tools: ["memory_write", "http_request", "schedule_create"],
      tool_approvals: ["http_request"],
      tool_blast_radius: { http_request: "Production deploys of the shop", schedule_create: "New schedules" },
      max_steps: 40,
    });
  });

  it("leave an older definition's lease without them", async () => {
    const lease = await leaseOf(await seedTenant(), ["name: Plain", "requires:", "  tools: [memory_write]"]);
    expect(lease.fleet.tool_approvals).toEqual([]);
    expect(lease.fleet).not.toHaveProperty("tool_blast_radius");
    expect(lease.fleet).not.toHaveProperty("max_steps");
  });

  it("gate the tools a policy rule names by gate kind, matching its blast radius when it lists one", async () => {
    const owner = await seedTenant();
    const policy = await putPolicy(owner, {
      rules: [
        {
          name: "schedules",
          match: { gate_kinds: ["tool.schedule_create"], blast_radius: ["New schedules"] },
        },
        { name: "memory elsewhere", match: { gate_kinds: ["tool.memory_write"], blast_radius: ["nope"] } },
        { name: "everything else", match: {}, required_approvals: 1 },
      ],
      escalation_webhook_url: null,
    });
    expect(policy.status, policy.text).toBe(200);
    const lease = await leaseOf(owner, agentFleet);
    expect(new Set(lease.fleet.tool_approvals)).toEqual(new Set(["http_request", "schedule_create"]));
  });

  it("gate an MCP server's tools a policy rule names by the name the model is offered (tool.<server>__<tool>)", async () => {
    const owner = await seedTenant();
    const policy = await putPolicy(owner, {
      rules: [
        { name: "issues", match: { gate_kinds: ["tool.tracker__create_issue", "tool.tracker__"] } },
        {
          name: "elsewhere",
          match: { gate_kinds: ["tool.other__close_issue", "tool.tracker__x"], blast_radius: ["nope"] },
        },
      ],
      escalation_webhook_url: null,
    });
    expect(policy.status, policy.text).toBe(200);
    const lease = await leaseOf(owner, [
      "name: Tracker",
      "requires:",
      "  network_hosts: [mcp.example.com]",
      "  mcp_servers:",
      "    - name: tracker",
      "      url: https://mcp.example.com/mcp",
      "      tools: [{name: list_issues, approval: required}]",
    ]);
    expect(lease.fleet.tool_approvals).toEqual([]);
    expect(lease.fleet.mcp_servers?.map((server) => [server.name, new Set(server.tool_approvals)])).toEqual([
      ["tracker", new Set(["list_issues", "create_issue"])],
    ]);
  });

  it("refuses bad values with 400 UZ-LIBRARY-010 naming the entry", async () => {
    const owner = await seedTenant();
    const cases: [string, RegExp][] = [
      [
        "requires:\n  tools:\n    - {name: a, blast_radius: ''}",
        /^requires\.tools\[0\]\.blast_radius must not be empty\.$/,
      ],
      [
        `requires:\n  tools:\n    - a\n    - {name: b, blast_radius: ${"x".repeat(501)}}`,
        /^requires\.tools\[1\]\.blast_radius must be at most 500 characters\.$/,
      ],
      [
        "requires:\n  tools:\n    - {name: a, blast_radius: [x]}",
        /^requires\.tools\[0\]\.blast_radius must be a string/,
      ],
      ["agent:\n  max_steps: 65", /^agent\.max_steps must be from 1 to 64\.$/],
      ["agent:\n  max_steps: 0", /^agent\.max_steps must be from 1 to 64\.$/],
      ["agent:\n  max_steps: 2.5", /^agent\.max_steps must be an integer\.$/],
      ["agent:\n  max_step: 3", /^agent has unknown key max_step\.$/],
      ["agent: 3", /^agent must be a mapping of max_steps\.$/],
    ];
    for (const [frontMatter, detail] of cases) {
      const response = await createEntry(owner, { definition: definition(`name: Bad\n${frontMatter}`) });
      expect(response.status, frontMatter).toBe(400);
      expect(response.body.error_code, frontMatter).toBe("UZ-LIBRARY-010");
      expect(response.body.detail, frontMatter).toMatch(detail);
    }
  });
});
