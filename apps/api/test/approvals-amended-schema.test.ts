import { describe, expect, it } from "vitest";
import { answerGate, leasedFleet, openGate, readGate, waitFor } from "./approval-fixtures.ts";
import { call, seedTenant, testApi } from "./harness.ts";

// Issue 32: an approver's edit of a tool call is checked against the tool's argument schema, which the
// runner sends with the gate, when it is made; and an approved action is recorded as started once.
const schema = {
  type: "object",
  properties: {
    method: { type: "string", enum: ["GET", "POST"], default: "GET" },
    url: { type: "string", format: "uri" },
  },
  required: ["url"],
};
const proposed = 'http_request {"method":"POST","url":"https://deploy.example.com/prod"}';

async function gated(extra: Record<string, unknown> = {}) {
  const owner = await seedTenant();
  const leased = await leasedFleet(owner);
  const opened = await openGate(leased, {
    tool_name: "http_request",
    action_name: "http_request",
    gate_kind: "tool.http_request",
    proposed_action: proposed,
    action_schema: schema,
    ...extra,
  });
  expect(opened.status, opened.text).toBe(201);
  return { owner, leased, gateId: opened.body.gate_id };
}

/** Each edit is refused 400 UZ-APPROVAL-002 with its detail, and the gate is still pending after them. */
async function expectEditsRefused(
  owner: Awaited<ReturnType<typeof seedTenant>>,
  gateId: string,
  cases: [string, RegExp][],
) {
  for (const [amended, detail] of cases) {
    const refused = await answerGate(owner, gateId, "approve", { amended_action: amended });
    expect(refused.status, amended).toBe(400);
    expect(refused.headers.get("content-type"), amended).toMatch(/^application\/problem\+json/);
    expect(refused.body.error_code, amended).toBe("UZ-APPROVAL-002");
    expect(String(refused.body.detail), amended).toMatch(detail);
  }
  const gate = await readGate(owner, gateId);
  expect(gate.body).toMatchObject({ status: "pending", amended_action: null, approvals: [] });
}

function markRan(leased: Awaited<ReturnType<typeof leasedFleet>>, gateId: string) {
  return call<{ gate_id: string; action_ran_at: number; first: boolean }>(
    "POST",
    `/v1/runners/me/leases/${leased.lease.lease_id}/gates/${gateId}/ran`,
    { token: leased.runner.token, body: { fencing_token: leased.lease.fencing_token } },
  );
}

describe("approving a tool call with changes", () => {
  it("refuses an edit that does not fit the tool with 400 UZ-APPROVAL-002, the gate left pending", async () => {
    const { owner, gateId } = await gated();
    const cases: [string, RegExp][] = [
      ['memory_write {"key":"k"}', /must be "http_request <arguments as JSON>": the same tool/],
      ["http_request {not json", /arguments \(after "http_request "\) are not valid JSON/],
      ['http_request {"method":"DELETE","url":"https://a.example.com"}', /arguments\.method: /],
      ['http_request {"method":"GET"}', /arguments\.url: /],
      ["http_request", /not valid JSON/],
      ["http_request [1]", /the arguments: /],
    ];
    await expectEditsRefused(owner, gateId, cases);
  });

  it("records a fitting edit, which the runner reads as the action to run", async () => {
    const { owner, leased, gateId } = await gated();
    const amended = 'http_request {"url":"https://deploy.example.com/staging"}';
    const approved = await answerGate(owner, gateId, "approve", { amended_action: amended });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.outcome).toBe("approved");
    const read = await waitFor(leased, gateId, 0);
    expect(read.body).toMatchObject({
      outcome: "approved",
      proposed_action: proposed,
      amended_action: amended,
      approved_action: amended,
      action_ran_at: null,
    });
  });

  it("keeps a gate without a schema taking any edit, as before", async () => {
    const { owner, gateId } = await gated({ action_schema: undefined });
    const approved = await answerGate(owner, gateId, "approve", { amended_action: "anything at all" });
    expect(approved.status, approved.text).toBe(200);
  });

  it("refuses a schema it cannot read (400 UZ-APPROVAL-002) or over 16 KiB (413), opening nothing", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const unreadable = await openGate(leased, { action_schema: { type: "frobnicate" } });
    expect(unreadable.status, unreadable.text).toBe(400);
    expect(unreadable.body).toMatchObject({ error_code: "UZ-APPROVAL-002" });
    expect(String((unreadable.body as unknown as { detail: string }).detail)).toMatch(
      /^action_schema is not a JSON Schema/,
    );
    const huge = await openGate(leased, {
      action_schema: { type: "object", description: "x".repeat(17 * 1024) },
    });
    expect(huge.status, huge.text).toBe(413);
    expect(huge.body).toMatchObject({ error_code: "UZ-REQ-006" });
    const notObject = await openGate(leased, { action_schema: null });
    expect(notObject.status, notObject.text).toBe(400);
    let nested: Record<string, unknown> = { type: "string" };
    for (let depth = 0; depth < 40; depth++) nested = { type: "array", items: nested };
    const deep = await openGate(leased, { action_schema: nested });
    expect(deep.status, deep.text).toBe(400);
    expect(deep.body).toMatchObject({ error_code: expect.stringMatching(/^UZ-(APPROVAL-002|REQ-\d+)$/) });
  });
});

describe("approving an MCP tool's call with changes (the server's inputSchema, relayed by the runner)", () => {
  /** A gate on `notes__<tool>` carrying `schema` as an MCP server lists it (draft-07, `$schema` kept). */
  const mcpGate = (tool: string, schema: Record<string, unknown>, args: Record<string, unknown>) =>
    gated({
      tool_name: `notes__${tool}`,
      action_name: `notes__${tool}`,
      gate_kind: `tool.notes__${tool}`,
      proposed_action: `notes__${tool} ${JSON.stringify(args)}`,
      action_schema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", ...schema },
    });

  it("checks an edit against the server's schema, patterns included", async () => {
    const { owner, gateId } = await mcpGate(
      "tag",
      {
        properties: { label: { type: "string", pattern: "^[a-z]+$" }, count: { type: "integer" } },
        required: ["label"],
      },
      { label: "urgent" },
    );
    await expectEditsRefused(owner, gateId, [
      ['notes__tag {"label":"Not Lower"}', /arguments\.label: /],
      ['notes__tag {"label":"ok","count":1.5}', /arguments\.count: /],
      ['notes__add {"label":"ok"}', /the same tool as proposed/],
    ]);
    const approved = await answerGate(owner, gateId, "approve", {
      amended_action: 'notes__tag {"label":"later","count":2}',
    });
    expect(approved.status, approved.text).toBe(200);
  });

  it("stops a pattern that backtracks without end on the edit: 400, the gate pending, approvable as proposed", async () => {
    const { owner, gateId } = await mcpGate(
      "tag",
      { properties: { label: { type: "string", pattern: "^(a+)+$" } } },
      { label: "aaa" },
    );
    await expectEditsRefused(owner, gateId, [
      [`notes__tag ${JSON.stringify({ label: `${"a".repeat(64)}!` })}`, /took longer than 100 ms/],
    ]);
    const approved = await answerGate(owner, gateId, "approve");
    expect(approved.status, approved.text).toBe(200);
  });

  it("refuses, never with a 500, an edit it cannot check: a schema that refers to itself, arguments too deep", async () => {
    const { owner, gateId } = await mcpGate("loop", { $ref: "#" }, {});
    await expectEditsRefused(owner, gateId, [['notes__loop {"a":{}}', /refers to itself without end/]]);
    const deep = await mcpGate("nest", { properties: { a: { type: "object" } } }, {});
    await expectEditsRefused(deep.owner, deep.gateId, [
      [`notes__nest ${'{"a":'.repeat(40)}{}${"}".repeat(40)}`, /nest deeper than 32 levels/],
    ]);
  });
});

describe("an approved action's run record", () => {
  it("is taken once: the lease that took it is told first again, a pending gate is 409", async () => {
    const { owner, leased, gateId } = await gated();
    const early = await markRan(leased, gateId);
    expect(early.status, early.text).toBe(409);
    expect(early.body).toMatchObject({ error_code: "UZ-APPROVAL-005" });
    expect((await answerGate(owner, gateId, "approve")).status).toBe(200);
    const first = await markRan(leased, gateId);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ gate_id: gateId, first: true });
    const again = await markRan(leased, gateId);
    expect(again.body).toEqual(first.body);
    expect((await waitFor(leased, gateId, 0)).body).toMatchObject({
      action_ran_at: first.body.action_ran_at,
    });
    // The terminal-gate trigger lets an approved gate take the record once, and nothing with it.
    const api = await testApi();
    await expect(
      api.database.query("update approval_gates set action_ran_at = 1 where id = $1", [gateId]),
    ).rejects.toThrow(/can no longer change/);
  });

  it("may not ride along with another change of an approved gate", async () => {
    const { owner, gateId } = await gated();
    expect((await answerGate(owner, gateId, "approve")).status).toBe(200);
    const api = await testApi();
    await expect(
      api.database.query(
        "update approval_gates set action_ran_at = 1, action_ran_lease_id = gen_random_uuid(), reason = 'x' where id = $1",
        [gateId],
      ),
    ).rejects.toThrow(/can no longer change/);
  });

  it("is fenced: a holder that is no longer current is refused 409 UZ-RUN-005", async () => {
    const { owner, leased, gateId } = await gated();
    expect((await answerGate(owner, gateId, "approve")).status).toBe(200);
    const stale = await call("POST", `/v1/runners/me/leases/${leased.lease.lease_id}/gates/${gateId}/ran`, {
      token: leased.runner.token,
      body: { fencing_token: leased.lease.fencing_token + 1 },
    });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.error_code).toBe("UZ-RUN-005");
  });
});
