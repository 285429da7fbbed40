import { randomUUID } from "node:crypto";
import { expect, looksAtSizes, signInToLanding, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  definition,
  type InstalledFleet,
  installFleet,
  messageFleet,
  TestRunner,
} from "../support/fleet-api.ts";
import type { Tenant } from "../support/fleetctl.ts";

async function fleetOf(apiUrl: string, tenant: Tenant, runner: TestRunner): Promise<InstalledFleet> {
  const name = `Release helper ${randomUUID().slice(0, 6)}`;
  const entry = await addTenantEntry(
    apiUrl,
    tenant,
    definition({ name, description: "Answers questions about releases.", runnerLabels: [runner.label] }),
  );
  return installFleet(apiUrl, tenant, entry, name);
}

test.describe("one page per run", () => {
  // The tenant fixture and the builds of a shared two-core machine can take minutes.
  test.describe.configure({ timeout: 300_000 });
  test("a run waiting at a gate says so after a reload, and links to that exact gate", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    test.setTimeout(300_000);
    const runner = new TestRunner(apiUrl);
    // An older gate on another fleet: the inbox's oldest, which a link that lost its gate would open.
    const other = await fleetOf(apiUrl, tenant, runner);
    await messageFleet(apiUrl, tenant, other.fleet_id, "Rotate the staging keys.");
    const otherLease = await runner.lease();
    await runner.openGate(otherLease, { tool_name: "vault", action_name: "rotate" });

    const fleet = await fleetOf(apiUrl, tenant, runner);
    const message = "Ship web v2 to production.";
    const sent = await messageFleet(apiUrl, tenant, fleet.fleet_id, message);
    const lease = await runner.lease();
    expect(lease.event_id).toBe(sent.event_id);
    await runner.publish(lease, [{ tool_call_started: { name: "approvals.request", args_redacted: "{}" } }]);
    const gate = await runner.openGate(lease);

    // The fleet page's conversation links the run to its own page.
    await signInToLanding(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}`);
    const turn = page
      .getByRole("log", { name: `Conversation with ${fleet.name}` })
      .getByRole("listitem")
      .filter({ hasText: message });
    await turn.getByRole("link", { name: /^Open run/ }).click();
    await expect(page).toHaveURL(
      new RegExp(`/fleets/${fleet.fleet_id}/runs/${sent.event_id}\\?workspace=${tenant.workspace_id}$`),
    );
    const heading = page.getByRole("heading", { level: 1, name: `Message run of ${fleet.name}` });
    await expect(heading).toBeVisible();

    // Opened by someone later, or reloaded: the stored gate says where the run stands, not only frames.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await expect(heading).toBeVisible();
    const run = page.getByRole("log", { name: "The run's conversation" });
    await expect(run).toContainText(message);
    // A fresh subscription replays nothing: what is published before it is live is read from the store.
    await expect(page.locator(".run-page .live-status")).toHaveAttribute("data-state", "live");
    // What the executor publishes while it waits for the answer: its call is still running.
    await runner.publish(lease, [{ tool_call_progress: { name: "approvals.request", elapsed_ms: 3_000 } }]);
    await expect(run).toContainText("approvals.request running");
    await expect(run).toContainText("Waiting for approval");
    await expect(run).not.toContainText("Not answered yet");
    const steps = run.getByRole("list", { name: "Steps of the run" });
    await expect(steps.locator('[data-step="gate"]')).toHaveAttribute("data-outcome", "pending");
    // The conversation and the steps are above the fold at 1440×900.
    for (const part of [run.getByText(message), steps]) {
      const box = await part.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThanOrEqual(900);
    }
    await looksAtSizes(page, "run-waiting");

    await page.setViewportSize({ width: 1440, height: 900 });
    await run.getByRole("link", { name: /^Open the gate for deploy · release/ }).click();
    await expect(page).toHaveURL(new RegExp(`gate=${gate.gate_id}`));
    await expect(page).toHaveURL(new RegExp(`workspace=${tenant.workspace_id}`));
    const detail = page.locator(".gate-detail");
    await expect(detail).toHaveAttribute("data-gate-id", gate.gate_id);
    // The gate names the run that waits for it.
    await detail.getByRole("link", { name: "the run waiting for this answer" }).click();
    await expect(heading).toBeVisible();

    // Answered and reported while the page is open: the run says so without a reload.
    await page.goto(`/approvals?workspace=${tenant.workspace_id}&gate=${gate.gate_id}`);
    await expect(page.locator(".gate-detail")).toHaveAttribute("data-gate-id", gate.gate_id);
    await page.goBack();
    await expect(run).toContainText("Waiting for approval");
    await runner.report(lease, {
      outcome: "processed",
      response_text: "Shipped web v2; error rate steady.",
      tokens: 900,
      wall_ms: 5100,
      cost_nanos: 2_000_000,
    });
    await expect(run).toContainText("Shipped web v2; error rate steady.");
    await expect(page.locator(".run-page")).toHaveAttribute("data-status", "processed");
    await looksAtSizes(page, "run-processed");
  });

  test("status words say what the state is: an event refused before it ran, a gate closed with its fleet", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    test.slow();
    const runner = new TestRunner(apiUrl);
    const fleet = await fleetOf(apiUrl, tenant, runner);
    await signInToLanding(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}`);
    const status = page.getByRole("combobox", { name: "Status" });
    await expect(status.locator("option", { hasText: "Refused before it ran" })).toHaveCount(1);
    await expect(status.locator("option", { hasText: "Blocked at a gate" })).toHaveCount(0);
    await page.goto(`/approvals?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("tab", { name: "Closed with its fleet" })).toBeVisible();
  });
});
