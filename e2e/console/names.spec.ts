import { seriousViolations } from "../support/axe.ts";
import { collectProblems, expect, screenshot, signInByLink, test } from "../support/fixtures.ts";
import { addTenantEntry, call, definition, installFleet, messageFleet } from "../support/fleet-api.ts";

interface KeyPage {
  items: { id: string; key_name: string }[];
}

test.describe("Names instead of ids", () => {
  test("audit actors and targets, event actors and fleets read by name, each id one copy-click away", async ({
    page,
    context,
    tenant,
    apiUrl,
  }, testInfo) => {
    const problems = collectProblems(page);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    // The tenant's bootstrap key mints another: the audit log records both keys by id.
    await call(apiUrl, tenant.api_key, "POST", "/v1/api-keys", { key_name: "names-bot" });
    const keys = await call<KeyPage>(apiUrl, tenant.api_key, "GET", "/v1/api-keys");
    const bootstrap = keys.items.find((key) => key.key_name === "bootstrap")!;
    const minted = keys.items.find((key) => key.key_name === "names-bot")!;
    const entry = await addTenantEntry(apiUrl, tenant, definition({ name: "Named fleet" }));
    const fleet = await installFleet(apiUrl, tenant, entry);
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "Who sent this?");
    // A rotated webhook secret is audited against its workspace.
    await call(apiUrl, tenant.api_key, "POST", `/v1/workspaces/${tenant.workspace_id}/webhook-secret`);

    await signInByLink(page, tenant);
    await page.goto(`/audit?workspace=${tenant.workspace_id}&scope=tenant`);
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    const row = page.getByRole("row", { name: /api_key\.mint/ });
    const actor = row.locator(".audit-actor");
    const target = row.locator(".audit-target");
    await expect(actor).toHaveText(/^API key bootstrap/);
    await expect(target).toHaveText(/^API key names-bot/);
    await expect(row).not.toContainText(bootstrap.id);

    // The id is one click away: the principal as the API writes it, which the actor filter takes.
    await actor.getByRole("button", { name: "Copy the id of API key bootstrap" }).click();
    await expect(actor.getByRole("status")).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`api_key:${bootstrap.id}`);
    await target.getByRole("button", { name: "Copy the id of API key names-bot" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`api_key:${minted.id}`);
    // A workspace target reads by the workspace's name too.
    const rotated = page.getByRole("row", { name: /webhook_secret\.rotate/ }).locator(".audit-target");
    await expect(rotated).toHaveText(/^workspace default/);
    await expect(rotated).not.toContainText(tenant.workspace_id.slice(0, 8));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, "audit-names");

    // The fleet's events name who sent each one; the Events page names and links the fleet.
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}`);
    const event = page
      .getByRole("log", { name: "Events of Named fleet" })
      .getByRole("row", { name: /Message/ });
    await expect(event.locator(".event-actor")).toHaveText(/^API key bootstrap/);
    await page.goto(`/events?workspace=${tenant.workspace_id}`);
    const item = page.locator(`[data-event-id]`).first();
    await expect(item).toContainText("API key bootstrap");
    await item.getByRole("link", { name: "Named fleet" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Named fleet" })).toBeVisible();
    expect(problems).toEqual([]);
  });
});
