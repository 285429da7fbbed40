import { randomUUID } from "node:crypto";
import { seriousViolations } from "../support/axe.ts";
import { collectProblems, expect, screenshot, signInByLink, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  definition,
  installFleet,
  messageFleet,
  setFleetStatus,
  TestRunner,
} from "../support/fleet-api.ts";

test.describe("Overview", () => {
  test("is the landing page: a pending gate and a waiting event with why, each linking to its fix", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const problems = collectProblems(page);
    // A gate the test's own runner opens under its lease.
    const runner = new TestRunner(apiUrl);
    const gated = await installFleet(
      apiUrl,
      tenant,
      await addTenantEntry(apiUrl, tenant, definition({ name: "Gatekeeper", runnerLabels: [runner.label] })),
    );
    await messageFleet(apiUrl, tenant, gated.fleet_id, "deploy web");
    await runner.openGate(await runner.lease(), { tool_name: "github", action_name: "deploy-web" });
    // A waiting event of a paused fleet. Its label is no runner's, so no runner takes it before the pause.
    const held = await installFleet(
      apiUrl,
      tenant,
      await addTenantEntry(
        apiUrl,
        tenant,
        definition({ name: "Held fleet", runnerLabels: [`nobody-${randomUUID().slice(0, 8)}`] }),
      ),
    );
    await messageFleet(apiUrl, tenant, held.fleet_id, "wait for me");
    await setFleetStatus(apiUrl, tenant, held.fleet_id, "paused");

    await signInByLink(page, tenant);
    await expect(page).toHaveURL(new RegExp(`/overview\\?workspace=${tenant.workspace_id}$`));
    const nav = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allInnerTexts();
    expect(nav[0]).toMatch(/^Overview/);

    const approvals = page.getByRole("region", { name: /^Pending approvals/ });
    const gate = approvals.getByRole("listitem").filter({ hasText: "github · deploy-web" });
    await expect(gate).toContainText("Gatekeeper");
    await expect(gate).toContainText(/Times out in \d+ min/);

    const waiting = page.getByRole("region", { name: /^Waiting for a runner/ });
    const event = waiting.getByRole("listitem").filter({ hasText: "Held fleet" });
    await expect(event).toHaveAttribute("data-reason", "fleet_paused");
    await expect(event).toContainText("The fleet is paused: it takes no work until it is resumed.");
    await expect(event).toContainText(/Waiting (under a minute|\d+ min)/);
    await expect(page.getByRole("region", { name: /^Runners/ })).toBeVisible();
    await expect(page.getByRole("region", { name: /^Spend today/ })).toContainText("since 00:00 UTC");

    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, "overview");

    // At 390 px wide the panels stack and nothing is wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(event).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, "overview-390");
    await page.setViewportSize({ width: 1280, height: 800 });

    // Each links to the place that fixes it: the fleet to resume, the gate in the inbox.
    await event.getByRole("link", { name: "Open Held fleet" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Held fleet" })).toBeVisible();
    await page.goBack();
    await gate.getByRole("link", { name: "github · deploy-web" }).click();
    await expect(page).toHaveURL(/\/approvals\?.*gate=/);
    await expect(page.getByRole("heading", { level: 1, name: "Approvals" })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("an unknown URL shows the styled not-found page inside the shell; signed out, one that leads to sign-in", async ({
    page,
    tenant,
  }, testInfo) => {
    const problems = collectProblems(page);
    await signInByLink(page, tenant);
    const response = await page.goto("/no-such-page/here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    // Inside the shell: the navigation and the signed-in person are there, and a way home.
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav).toBeVisible();
    await expect(page.getByRole("region", { name: "Signed in as" })).toContainText(tenant.email);
    await expect(page.getByRole("link", { name: "Go to the home page" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, "not-found");

    // At 390 px wide the page still reads without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, testInfo, "not-found-390");

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole("link", { name: "Go to the home page" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

    // Under a known page's path too.
    await page.goto("/fleets/not-a-fleet/extra");
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(nav).toBeVisible();

    // Signed out: no shell, a styled page that leads to sign-in.
    await page.context().clearCookies();
    await page.goto("/no-such-page/here");
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "sign in" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems.filter((p) => !p.includes("404"))).toEqual([]);
  });
});
