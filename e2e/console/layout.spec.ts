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
    for (const path of ["/approvals", "/events", "/audit"]) {
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

  test("every main page fits a phone's width, and the menu opens, closes and keeps focus in order", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    test.setTimeout(120_000);
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({
        name: "Narrow fleet with a long name that has to wrap",
        runnerLabels: ["e2e-nobody-narrow"],
      }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await signInByLink(page, tenant);
    await page.setViewportSize({ width: 390, height: 844 });
    const ws = `workspace=${tenant.workspace_id}`;
    const pages: [path: string, heading: string | RegExp][] = [
      ["/approvals", "Approvals"],
      ["/runners", "Runners"],
      ["/fleets", "Fleets"],
      [`/fleets/${fleet.fleet_id}`, fleet.name],
      ["/library", "Library"],
      [`/library/${entry.id}`, entry.name],
      ["/events", "Events"],
      ["/connectors", "Connectors"],
      ["/secrets", "Secrets"],
      ["/api-keys", "API keys"],
      ["/members", "Members"],
      ["/billing", "Billing"],
      ["/audit", "Audit log"],
      // Shorter than the screen: the bar keeps its own height (the rows once shared the spare height).
      ["/no-such-page", "Page not found"],
    ];
    for (const [path, heading] of pages) {
      await page.goto(`${path}?${ws}`);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      // The skeletons gone: the page holds what it will hold.
      await expect(page.locator("main [data-loading]")).toHaveCount(0);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path} is ${width} px wide`).toBeLessThanOrEqual(390);
      const bar = await page.locator(".shell__sidebar").boundingBox();
      expect(bar?.height, `${path}: the navigation bar is ${bar?.height} px tall`).toBeLessThanOrEqual(72);
      await screenshot(page, testInfo, `${path.split("/")[1]}${path.includes("/", 1) ? "-detail" : ""}-390`);
    }

    // Folded behind a button: the page starts at the top of the screen.
    const menu = page.getByRole("button", { name: "Navigation menu" });
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(nav).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav).toBeVisible();
    await expect(nav.getByRole("link").first()).toBeFocused();
    await expect(page.getByRole("radiogroup", { name: "Theme" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, testInfo, "menu-open-390");
    // The palette is how a phone searches: its button stays in the menu (the shortcut sheet's does not).
    await expect(page.getByRole("button", { name: /Keyboard shortcuts/ })).toBeHidden();
    await page.getByRole("button", { name: /Go to or run/ }).click();
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await expect(palette).toBeVisible();
    await palette.getByRole("combobox").fill("secrets");
    await expect(palette.getByRole("option", { name: /Secrets/ }).first()).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(palette).toBeHidden();
    await expect(nav).toBeVisible();
    // Escape closes it and gives focus back to the button.
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    // By keyboard: Enter opens, and following a link closes it on the new page.
    await page.keyboard.press("Enter");
    await expect(nav).toBeVisible();
    await nav.getByRole("link", { name: /Secrets/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Secrets" })).toBeVisible();
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    // A click outside closes it too (here on the bar, between the brand and the button: the panel covers
    // most of a phone's screen).
    await menu.click();
    await expect(nav).toBeVisible();
    const bar = (await menu.boundingBox())!;
    await page.mouse.click(bar.x - 40, bar.y + bar.height / 2);
    await expect(nav).toBeHidden();
    await expect(page).toHaveURL(/\/secrets/);

    // Wide again: the sidebar, no menu button.
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(nav).toBeVisible();
    await expect(menu).toBeHidden();
  });

  test("a row's actions stay in view on a phone while its table scrolls", async ({ page, tenant }) => {
    await signInByLink(page, tenant);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/api-keys");
    const revoke = page.getByRole("button", { name: "Revoke API key bootstrap" });
    await expect(revoke).toBeVisible();
    // The table is wider than the card and has not been scrolled, yet the button is on the screen.
    const scroller = page.locator(".ui-table-scroll").first();
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth && el.scrollLeft === 0)).toBe(
      true,
    );
    const box = await revoke.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await revoke.click();
    await expect(page.getByRole("dialog", { name: "Revoke API key bootstrap?" })).toBeVisible();
  });

  test("a long name without a space wraps, and a long conversation does not lengthen the page", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    // The longest name a fleet takes, one word: it wrapped nowhere, and the page grew 2,000 px wide.
    const name = "L".repeat(200);
    const entry = await addTenantEntry(apiUrl, tenant, definition({ name: "Long name fleet" }));
    const fleet = await installFleet(apiUrl, tenant, entry, name);
    // Long messages, far more than the conversation's box shows: each turn's hidden "Details" label sat at
    // its place in the list, far below the box, and lengthened the page by the list's whole height.
    const words = "a long message that wraps over many lines ".repeat(60);
    for (let n = 0; n < 12; n++) await messageFleet(apiUrl, tenant, fleet.fleet_id, `${n}: ${words}`);
    await signInByLink(page, tenant);

    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const turns = page.locator(".conversation__turns");
    const overflowing = () => turns.evaluate((el) => el.scrollHeight > el.clientHeight);
    await expect.poll(overflowing).toBe(true);
    const sizes = () =>
      page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        height: document.documentElement.scrollHeight,
        content: Math.ceil(document.querySelector("main")!.getBoundingClientRect().bottom + window.scrollY),
      }));
    const wide = await sizes();
    expect(wide.width).toBeLessThanOrEqual(1440);
    expect(wide.height, "the page ends where its content does").toBeLessThanOrEqual(wide.content + 1);
    const actions = await page.locator(".page-header__actions").boundingBox();
    expect(actions!.x + actions!.width).toBeLessThanOrEqual(1440);
    await screenshot(page, testInfo, "long-name-fleet-1440");

    await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toBeVisible();
    const scroller = page.locator(".ui-table-scroll").first();
    expect(await scroller.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}`);
    await expect.poll(overflowing).toBe(true);
    const narrow = await sizes();
    expect(narrow.width).toBeLessThanOrEqual(390);
    expect(narrow.height, "the page ends where its content does").toBeLessThanOrEqual(narrow.content + 1);
    await screenshot(page, testInfo, "long-name-fleet-390");
  });
});
