import { seriousViolations } from "../support/axe.ts";
import { collectProblems, expect, screenshot, signInByLink, test } from "../support/fixtures.ts";

test.describe("Overview", () => {
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
    await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();

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
