import { expect, screenshot, signInByLink, test } from "../support/fixtures.ts";
import { addTenantEntry, definition, installFleet, messageFleet, TestRunner } from "../support/fleet-api.ts";

test.describe("Layout", () => {
  test("pages loaded directly keep their toolbar, and a phone's inbox fits its card", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const runner = new TestRunner(apiUrl);
    const name = "Layout fleet";
    const entry = await addTenantEntry(apiUrl, tenant, definition({ name, runnerLabels: [runner.label] }));
    const fleet = await installFleet(apiUrl, tenant, entry);
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "approve: deploy web");
    const lease = await runner.lease();
    await runner.openGate(lease, { action_name: "rotate-every-credential-in-the-whole-organisation" });
    await signInByLink(page, tenant);

    // Loaded first (no other page brought the Secrets sheet along), the workspace toolbar is padded.
    for (const path of ["/approvals", "/activity", "/audit"]) {
      await page.goto(`${path}?workspace=${tenant.workspace_id}`);
      await expect(page.locator(".card__toolbar").first()).toHaveCSS("padding-left", "16px");
    }

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/approvals?workspace=${tenant.workspace_id}`);
    const detail = page.locator(".gate-detail");
    await expect(detail).toBeVisible();
    const card = await page.locator("section.card").first().boundingBox();
    const pane = await page.locator(".inbox__pane").boundingBox();
    expect(pane!.x + pane!.width).toBeLessThanOrEqual(card!.x + card!.width + 1);
    // No page is wider than the screen, and the menu is a bar above the page, not a screen of its own.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const heading = await page.getByRole("heading", { level: 1, name: "Approvals" }).boundingBox();
    expect(heading!.y).toBeLessThan(300);
    await screenshot(page, testInfo, "approvals-390");
  });
});
