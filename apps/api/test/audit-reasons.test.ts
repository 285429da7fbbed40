import type { OutputOf } from "@fleet/contracts";
import type { listWorkspaceAudit } from "@fleet/contracts/audit/list-workspace-audit";
import { describe, expect, it } from "vitest";
import { answerGate, gateIn, leasedFleet, openGate, readGate } from "./approval-fixtures.ts";
import { call, seedTenant, type Tenant } from "./harness.ts";

type AuditEvent = OutputOf<typeof listWorkspaceAudit>["items"][number];

/** The workspace's audit rows about one gate, newest first, as the list route answers them. */
async function listedRows(owner: Tenant, gateId: string): Promise<AuditEvent[]> {
  const listed = await call<OutputOf<typeof listWorkspaceAudit>>(
    "GET",
    `/v1/workspaces/${owner.workspaceId}/audit?action=approval.*`,
    { token: owner.apiKey },
  );
  expect(listed.status, listed.text).toBe(200);
  return listed.body.items.filter((row) => row.target === `approval_gate:${gateId}`);
}

/** The same rows as the SIEM export answers them. */
async function exportedRows(owner: Tenant, gateId: string): Promise<AuditEvent[]> {
  const now = Date.now();
  const exported = await call("GET", `/v1/tenants/me/audit/export?from=${now - 600_000}&to=${now + 1_000}`, {
    token: owner.apiKey,
  });
  expect(exported.status, exported.text).toBe(200);
  return exported.text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((row) => row.target === `approval_gate:${gateId}`);
}

function extend(owner: Tenant, gateId: string, body: Record<string, unknown>) {
  return call("POST", `/v1/workspaces/${owner.workspaceId}/approvals/${gateId}/extend`, {
    token: owner.apiKey,
    body,
  });
}

describe("audit: an answer's reason is on its row", () => {
  it("records the reason of a deny and of an extend, read back through the list and the export", async () => {
    const owner = await seedTenant();
    const gateId = (await gateIn(owner)).gate_id!;
    const extended = await extend(owner, gateId, {
      extend_ms: 60_000,
      reason: "  Waiting for the on-call lead  ",
    });
    expect(extended.status, extended.text).toBe(200);
    const denied = await answerGate(owner, gateId, "deny", { reason: "Not on a Friday; ship it Monday." });
    expect(denied.status, denied.text).toBe(200);

    const listed = await listedRows(owner, gateId);
    expect(listed.map((row) => [row.action, row.details.reason])).toEqual([
      ["approval.deny", "Not on a Friday; ship it Monday."],
      // The contract trims an extension's reason; the row keeps what the gate keeps.
      ["approval.extend", "Waiting for the on-call lead"],
    ]);
    expect((await readGate(owner, gateId)).body).toMatchObject({
      reason: "Not on a Friday; ship it Monday.",
      extension_reason: "Waiting for the on-call lead",
    });
    expect(await exportedRows(owner, gateId)).toEqual([...listed].reverse());
  });

  it("records an approval's reason, and null when none or a blank one is given", async () => {
    const owner = await seedTenant();
    const leased = await leasedFleet(owner);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const opened = await openGate(leased);
      expect(opened.status, opened.text).toBe(201);
      ids.push(opened.body.gate_id);
    }
    const [given, none, blank] = ids as [string, string, string];
    expect((await answerGate(owner, given, "approve", { reason: "Checks are green." })).status).toBe(200);
    expect((await answerGate(owner, none, "deny")).status).toBe(200);
    expect((await answerGate(owner, blank, "deny", { reason: " \n " })).status).toBe(200);
    expect((await listedRows(owner, given))[0]!.details).toMatchObject({ reason: "Checks are green." });
    expect((await listedRows(owner, none))[0]!.details).toMatchObject({ reason: null });
    expect((await listedRows(owner, blank))[0]!.details).toMatchObject({ reason: null });
    // The gate keeps the same text as its row: nothing for a blank reason.
    expect((await readGate(owner, blank)).body.reason).toBeNull();
  });

  it("masks the fleet's secrets in a reason, on the gate and on its row", async () => {
    const owner = await seedTenant();
    const secret = "ghp_live_reason_0123456789";
    const stored = await call("POST", `/v1/workspaces/${owner.workspaceId}/secrets`, {
      token: owner.apiKey,
      body: { name: "GITHUB_TOKEN", data: { token: secret } },
    });
    expect(stored.status, stored.text).toBe(201);
    const opened = await openGate(await leasedFleet(owner, { credentials: ["GITHUB_TOKEN"] }));
    expect(opened.status, opened.text).toBe(201);
    const gateId = opened.body.gate_id;
    expect((await extend(owner, gateId, { extend_ms: 60_000, reason: `rotate ${secret}` })).status).toBe(200);
    expect((await answerGate(owner, gateId, "deny", { reason: `leaked ${secret} here` })).status).toBe(200);
    const rows = await listedRows(owner, gateId);
    expect(rows.map((row) => row.details.reason)).toEqual([
      "leaked [secret:GITHUB_TOKEN] here",
      "rotate [secret:GITHUB_TOKEN]",
    ]);
    expect(JSON.stringify(await exportedRows(owner, gateId))).not.toContain(secret);
    expect((await readGate(owner, gateId)).text).not.toContain(secret);
  });

  it("refuses a hostile or oversized reason with a problem and records nothing", async () => {
    const owner = await seedTenant();
    const gateId = (await gateIn(owner)).gate_id!;
    for (const body of [
      { reason: "a\u0000b" },
      { reason: "x".repeat(2001) },
      { reason: { nested: true } },
      { reason: null },
    ]) {
      const refused = await answerGate(owner, gateId, "deny", body);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
    }
    for (const reason of ["a\u0000b", "x".repeat(2001), "", null]) {
      const refused = await extend(owner, gateId, { extend_ms: 60_000, reason });
      expect(refused.status, refused.text).toBe(400);
    }
    expect(await listedRows(owner, gateId)).toEqual([]);
  });
});
