import { seriousViolations } from "../support/axe.ts";
import {
  collectProblems,
  expect,
  looksAtSizes,
  screenshot,
  signInByLink,
  test,
} from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  requesterToken,
  TestRunner,
} from "../support/fleet-api.ts";
import type { Tenant } from "../support/fleetctl.ts";

/** A fleet of the test's own runner with one message leased, and `count` gates open on it. */
async function openGates(apiUrl: string, tenant: Tenant, name: string, count: number) {
  const runner = new TestRunner(apiUrl);
  const entry = await addTenantEntry(apiUrl, tenant, definition({ name, runnerLabels: [runner.label] }));
  const fleet = await installFleet(apiUrl, tenant, entry);
  // Asked by another member: the owner, who answers, did not cause the gates.
  await messageFleet(apiUrl, tenant, fleet.fleet_id, "approve: deploy", await requesterToken(apiUrl, tenant));
  const lease = await runner.lease();
  const gates = [];
  for (let i = 0; i < count; i++) gates.push(await runner.openGate(lease, { action_name: `release-${i}` }));
  return { fleet, gates };
}

test.describe("The audit log reads like a record", () => {
  test.slow();

  test("deny, extend and a bulk deny keep their reasons; rows say who, what and when by name, never epoch ms", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const problems = collectProblems(page);
    const { fleet, gates } = await openGates(apiUrl, tenant, "Record keeper", 3);
    const [first, second, third] = gates as [(typeof gates)[0], (typeof gates)[0], (typeof gates)[0]];
    await signInByLink(page, tenant);

    // The first gate is extended with a reason (through the API: the inbox's extend form sends the same
    // body), then denied with another in its pane.
    await call(
      apiUrl,
      tenant.api_key,
      "POST",
      `/v1/workspaces/${tenant.workspace_id}/approvals/${first.gate_id}/extend`,
      { extend_ms: 30 * 60_000, reason: "The release manager is on a call." },
    );
    await page.goto(`/approvals?workspace=${tenant.workspace_id}&gate=${first.gate_id}`);
    const pane = page.getByRole("region", { name: "deploy · release-0" });
    await pane.getByLabel(/^Reason/).fill("Not during the freeze.");
    await pane.getByRole("button", { name: "Deny", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: /Denied deploy · release-0/ })).toBeVisible();

    // The other two at once, with one reason for both.
    for (const gate of [second, third]) {
      await page
        .getByRole("row", { name: new RegExp(gate.action_name) })
        .getByRole("checkbox")
        .check();
    }
    await page.getByLabel("Reason for the 2 selected (optional)").fill("Duplicates of the first.");
    await page.getByRole("button", { name: "Deny 2" }).click();
    await expect(page.getByRole("status").filter({ hasText: "2 of 2 answered." })).toBeVisible();

    await page.goto(`/audit?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    const table = page.getByRole("table", { name: /Audit log of the workspace/ });
    const extended = table.getByRole("row", { name: /approval\.extend/ });
    // What, in words, the target by name and linked to its gate; the fleet by name, linked.
    await expect(extended.locator(".audit-what__words")).toHaveText(
      new RegExp(`^Extended the deadline of approval ${first.gate_id.slice(0, 8)}… on fleet Record keeper`),
    );
    await expect(
      extended.getByRole("link", { name: `approval ${first.gate_id.slice(0, 8)}…` }),
    ).toHaveAttribute("href", `/approvals?workspace=${tenant.workspace_id}&gate=${first.gate_id}`);
    await expect(extended.locator(".audit-what").getByRole("link", { name: "Record keeper" })).toBeVisible();
    // Who by name; the reason as given; the deadline's move as dates, with the absolute time on hover.
    await expect(extended.locator(".audit-actor")).toHaveText(/^API key bootstrap/);
    const details = extended.locator(".audit-details");
    // A reason is quoted (a <q>: the browser draws the quotes, which are not part of its text).
    await expect(details.locator('[data-key="reason"] dd q')).toHaveText("The release manager is on a call.");
    await expect(details.locator('[data-key="from"] dd')).toHaveText(/in \d+ min|in \d+ h/);
    await expect(details.locator('[data-key="extend_ms"] dd')).toHaveText("30m 00s");
    await expect(details.locator('[data-key="fleet_id"] dd')).toHaveText(/^fleet Record keeper/);

    const denied = table.getByRole("row", { name: /approval\.deny/ });
    await expect(denied).toHaveCount(3);
    // Ids made in one millisecond share their first characters: the rows are told apart by their reasons.
    const own = denied.filter({ hasText: "Not during the freeze." });
    await expect(own.locator(".audit-what__words")).toHaveText(/^Denied approval /);
    await expect(own.locator('[data-key="reason"] dd q')).toHaveText("Not during the freeze.");
    await expect(own.locator(".audit-actor")).toHaveText(`${tenant.email} (you)`);
    await expect(denied.filter({ hasText: "Duplicates of the first." })).toHaveCount(2);
    // No epoch milliseconds and no bare fleet or person id anywhere in the rows.
    const text = (await table.textContent()) ?? "";
    expect(text).not.toMatch(/\b1\d{12}\b/);
    expect(text).not.toContain(fleet.fleet_id);
    expect(text).not.toContain(tenant.user_id);
    expect(await seriousViolations(page)).toEqual([]);
    await looksAtSizes(page, "audit-record", true);
    await screenshot(page, testInfo, "audit-record");
    expect(problems).toEqual([]);
  });
});
