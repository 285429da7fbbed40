import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signInByLink, test } from "../support/fixtures.ts";

/** Serious and critical WCAG 2.1 A/AA violations, summarised so a failure names what to fix. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target.join(" ")),
    }));
}

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
