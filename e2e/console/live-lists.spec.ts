import { randomUUID } from "node:crypto";
import { expect, signInToLanding, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  TestRunner,
} from "../support/fleet-api.ts";
import { listSchedules } from "../support/schedule-api.ts";

// Lists that change while a person looks at them update without a reload (issue 30 §3). Each change here
// happens behind the page's back, through the API, as another person, a schedule or a terminal would.

test.describe("lists that change while you look", () => {
  // The tenant fixture and the builds of a shared two-core machine can take minutes.
  test.describe.configure({ timeout: 300_000 });
  test("the approvals status line counts a gate opened and a gate answered elsewhere", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    test.setTimeout(300_000);
    const runner = new TestRunner(apiUrl);
    const name = `Deployer ${randomUUID().slice(0, 6)}`;
    const entry = await addTenantEntry(apiUrl, tenant, definition({ name, runnerLabels: [runner.label] }));
    const fleet = await installFleet(apiUrl, tenant, entry, name);
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "Ship it.");
    const lease = await runner.lease();
    await runner.openGate(lease, { action_name: "first" });

    await signInToLanding(page, tenant);
    await page.goto(`/approvals?workspace=${tenant.workspace_id}`);
    const summary = page.locator(".toolbar-summary");
    await expect(summary).toHaveText("1 gate · oldest first");
    const badge = page.getByRole("navigation", { name: "Main" }).locator(".nav__count");
    await expect(badge).toHaveAttribute("data-count", "1");

    const second = await runner.openGate(lease, { action_name: "second" });
    await expect(summary).toHaveText("2 gates · oldest first", { timeout: 8_000 });
    await expect(badge).toHaveAttribute("data-count", "2", { timeout: 8_000 });

    await call(
      apiUrl,
      tenant.api_key,
      "POST",
      `/v1/workspaces/${tenant.workspace_id}/approvals/${second.gate_id}/deny`,
      { reason: "not today" },
    );
    await expect(summary).toHaveText("1 gate · oldest first", { timeout: 8_000 });
    await expect(badge).toHaveAttribute("data-count", "1", { timeout: 8_000 });
  });

  test("a one-time schedule leaves the list once it fired", async ({ page, tenant, apiUrl }) => {
    test.setTimeout(420_000);
    // A label no runner carries: the fired event waits, and no other spec's runner takes it.
    const name = `Nightly ${randomUUID().slice(0, 6)}`;
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name, runnerLabels: [`nobody-${randomUUID().slice(0, 8)}`] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry, name);
    // Far enough ahead that the page is open before it fires, on a slow shared machine too.
    const at = new Date(Date.now() + 3 * 60_000);
    await call(
      apiUrl,
      tenant.api_key,
      "POST",
      `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleet_id}/schedules`,
      {
        cron: `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`,
        timezone: "UTC",
        message: "Run the report once.",
        once: true,
      },
    );
    await signInToLanding(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}&tab=schedules`);
    const row = page.getByRole("row").filter({ hasText: "Run the report once." });
    await expect(row).toBeVisible();

    // It fires at the next minute: the event arrives, and the schedule retires.
    await expect
      .poll(
        async () =>
          (
            await call<{ items: { event_type: string }[] }>(
              apiUrl,
              tenant.api_key,
              "GET",
              `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleet_id}/events`,
            )
          ).items.filter((event) => event.event_type === "cron").length,
        { timeout: 240_000, intervals: [1_000] },
      )
      .toBe(1);
    await expect
      .poll(async () => (await listSchedules(apiUrl, tenant, fleet.fleet_id)).items.length, {
        timeout: 20_000,
      })
      .toBe(0);
    // The page follows within a few seconds, not at its next idle poll (30 s).
    await expect(row).toHaveCount(0, { timeout: 6_000 });
  });

  test("a command-line sign-in approved here appears in the list of sign-ins without a reload", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    test.slow();
    await signInToLanding(page, tenant);
    const host = `box-${randomUUID().slice(0, 6)}`;
    const started = (await (
      await fetch(`${apiUrl}/v1/auth/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "fleetctl 1.0", client_host: host }),
      })
    ).json()) as { device_code: string; verification_uri_complete: string };
    const link = new URL(started.verification_uri_complete);
    await page.goto(`${link.pathname}${link.search}`);
    const signIns = page.getByRole("region", { name: "Your command-line sign-ins" });
    await expect(signIns).toBeVisible();
    await expect(signIns.getByRole("row", { name: new RegExp(host) })).toHaveCount(0);
    const request = page.getByRole("region", { name: "fleetctl 1.0 asks to sign in as you" });
    await request.getByRole("button", { name: "Approve sign-in" }).click();
    await expect(request.getByRole("status")).toContainText("Approved");
    // The terminal's next poll turns the approval into a credential.
    const token = await fetch(`${apiUrl}/v1/auth/sessions/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ device_code: started.device_code }),
    });
    expect(token.status).toBe(200);
    await expect(signIns.getByRole("row", { name: new RegExp(`fleetctl 1\\.0 on ${host}`) })).toContainText(
      "Active",
      { timeout: 10_000 },
    );
  });
});
