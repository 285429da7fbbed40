import { seriousViolations } from "../support/axe.ts";
import { collectProblems, expect, screenshot, signInByLink, test } from "../support/fixtures.ts";

test.describe("Overview", () => {
  test("an unknown URL shows the styled not-found page", async ({ page, tenant }, testInfo) => {
    const problems = collectProblems(page);
    await signInByLink(page, tenant);
    await page.goto("/no-such-page/here");
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    // The way back into the console.
    await expect(page.getByRole("link", { name: "Open the console" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, "not-found");

    // At 390 px wide the page still reads without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, testInfo, "not-found-390");

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole("link", { name: "Open the console" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeHidden();
    expect(problems.filter((p) => !p.includes("404"))).toEqual([]);
  });
});
