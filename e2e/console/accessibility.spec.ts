import { seriousViolations } from "../support/axe.ts";
import { expect, signInByLink, test } from "../support/fixtures.ts";

test.describe("Accessibility", () => {
  test("the sign-in page has no serious or critical violations", async ({ page }) => {
    await page.goto("/sign-in");
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the keys page and its dialogs have no serious or critical violations", async ({ page, tenant }) => {
    await signInByLink(page, tenant);
    await expect(page.getByRole("row", { name: /bootstrap/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Create API key" }).click();
    await page.getByRole("dialog").getByLabel("Name").fill("axe-check");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByRole("dialog", { name: "Copy your new API key" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
