import { expect, signInByLink, test } from "../support/fixtures.ts";
import { addTenantEntry, call, definition, installFleet } from "../support/fleet-api.ts";

test.describe("Workspaces", () => {
  test("a page opened without a workspace shows the one this browser showed last", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const second = await call<{ workspace_id: string }>(apiUrl, tenant.api_key, "POST", "/v1/workspaces", {
      name: "Second workspace",
    });
    await signInByLink(page, tenant);

    await page.goto(`/secrets?workspace=${second.workspace_id}`);
    await expect(page.getByLabel("Workspace")).toHaveValue(second.workspace_id);
    // Remembered once shown: the next page opened bare picks it, not the first workspace.
    await page.goto("/approvals");
    await expect(page).toHaveURL(new RegExp(`/approvals\\?workspace=${second.workspace_id}$`));

    // A remembered workspace that is gone falls back to the first of the list.
    const listed = await call<{ items: { id: string }[] }>(
      apiUrl,
      tenant.api_key,
      "GET",
      "/v1/tenants/me/workspaces",
    );
    await page.evaluate(() => window.localStorage.setItem("fleet.workspace", "gone"));
    await page.goto("/approvals");
    await expect(page).toHaveURL(new RegExp(`/approvals\\?workspace=${listed.items[0]!.id}$`));
  });

  test("a page whose workspaces cannot be read says so in the picker too, not that it is loading", async ({
    page,
    tenant,
  }) => {
    await signInByLink(page, tenant);
    await page.route(
      (url) => url.pathname.includes("workspaces.list"),
      (route) => route.abort("connectionrefused"),
    );
    await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
    const picker = page.getByLabel("Workspace");
    await expect(picker.getByRole("option")).toHaveText(["Loading workspaces…"]);
    // The console asks again twice before it gives up on an outage.
    await expect(picker.getByRole("option")).toHaveText(["Workspaces not loaded"], { timeout: 30_000 });
    await expect(picker).toBeDisabled();
  });

  test("a list whose refresh fails keeps its rows under the problem", async ({ page, tenant, apiUrl }) => {
    test.setTimeout(90_000);
    const entry = await addTenantEntry(apiUrl, tenant, definition({ name: "Steady fleet" }));
    await installFleet(apiUrl, tenant, entry);
    await signInByLink(page, tenant);
    await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
    const row = page.getByRole("row").filter({ hasText: "Steady fleet" });
    await expect(row).toBeVisible();

    // The API goes away; back on the tab once the list is stale (15 s), the refresh fails, and the rows
    // stay where they were, with the news above them.
    await page.route(
      (url) => url.pathname.includes("fleets.list"),
      (route) => route.abort("connectionrefused"),
    );
    await page.waitForTimeout(16_000);
    await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
    await expect(page.getByRole("main").getByRole("alert")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("Below is the list as it was last loaded.")).toBeVisible();
    await expect(row).toBeVisible();
  });
});
