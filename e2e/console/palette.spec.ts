import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { collectProblems, expect, screenshot, signInByLink, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  definition,
  installFleet,
  messageFleet,
  setFleetStatus,
} from "../support/fleet-api.ts";

test.describe("Palette, shortcuts and filters", () => {
  // A browser, the console and the API on two shared cores: a loaded machine took a walk through the
  // palette past the default minute.
  test.describe.configure({ timeout: 120_000 });

  test("Ctrl+K finds a fleet by name and opens it; a skip link comes first", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const problems = collectProblems(page);
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: `Palette ${randomUUID().slice(0, 6)}` }),
    );
    const wanted = await installFleet(apiUrl, tenant, entry, "Nightly report writer");
    await installFleet(apiUrl, tenant, entry, "Inbox triage");
    await signInByLink(page, tenant);
    // Signed in on the overview; these start from the fleets list.
    await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();

    // The first Tab reaches the skip link, which moves past the navigation.
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main")).toBeFocused();

    // Ctrl+K opens the palette with the focus in its search field; Escape closes it.
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    const search = palette.getByRole("combobox", { name: /Search pages, fleets/ });
    await expect(search).toBeFocused();
    await expect(palette.getByRole("option", { name: /Install fleet/ })).toBeVisible();
    const axe = await new AxeBuilder({ page }).include(".palette-dialog-host").analyze();
    expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(palette).toBeHidden();

    // Typing narrows the list to the fleet; the arrows move the active option; Enter opens it. Opened
    // again by the sidebar's button, which only opens: a second chord, sent when a loaded machine had not
    // shown the palette yet, toggled it shut after the search had been typed.
    await page.getByRole("button", { name: /Go to or run/ }).click();
    await expect(search).toBeVisible();
    await search.fill("nightly rep");
    const option = palette.getByRole("option", { name: /Nightly report writer/ });
    await expect(option).toBeVisible();
    await expect(palette.getByRole("option", { name: /Inbox triage/ })).toHaveCount(0);
    await expect(option).toHaveAttribute("aria-selected", "true");
    await expect(search).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id")) ?? "");
    await screenshot(page, testInfo, "palette-fleet");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/fleets/${wanted.fleet_id}\\?workspace=`));
    await expect(page.getByRole("heading", { level: 1, name: "Nightly report writer" })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("g then a letter goes to a page; the sheet lists them; / focuses a filter; the palette runs an action", async ({
    page,
    tenant,
  }) => {
    const problems = collectProblems(page);
    await signInByLink(page, tenant);
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

    // g then a letter goes to a page; the sheet lists the palette and the letters. (Pressed again only if
    // the overview's HTML was on screen before its scripts listened for keys.)
    await expect(async () => {
      await page.keyboard.press("g");
      await page.keyboard.press("a");
      await expect(page.getByRole("heading", { level: 1, name: "Approvals" })).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 15_000 });
    await page.keyboard.press("g");
    await page.keyboard.press("f");
    await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();
    await expect(page).toHaveURL(/\/fleets/);
    await page.keyboard.press("?");
    const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(sheet).toContainText("Open the command palette");
    await expect(sheet).toContainText("Skip to content");
    await expect(sheet).toContainText("Audit log");
    await page.keyboard.press("Escape");

    // `/` focuses the page's first filter; keys typed there are text, not shortcuts.
    await page.keyboard.press("/");
    const name = page.getByRole("textbox", { name: "Name" });
    await expect(name).toBeFocused();
    await page.keyboard.type("ga");
    await expect(name).toHaveValue("ga");
    await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();

    // A page's action runs from the palette: Install fleet opens its dialog.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+k");
    const search = page
      .getByRole("dialog", { name: "Command palette" })
      .getByRole("combobox", { name: /Search pages, fleets/ });
    await expect(search).toBeFocused();
    await search.fill("install");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog", { name: "Install a fleet" })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("the palette finds a fleet past the first hundred by asking the list for the name", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: `Many ${randomUUID().slice(0, 6)}` }),
    );
    // The oldest fleet: the newest hundred, the palette's first list, leave it out.
    const oldest = await installFleet(apiUrl, tenant, entry, "Archive sweeper");
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          installFleet(apiUrl, tenant, entry, `Filler ${batch}-${index}`),
        ),
      );
    }
    await signInByLink(page, tenant);
    await page.keyboard.press("Control+k");
    const palette = page.getByRole("dialog", { name: "Command palette" });
    await palette.getByRole("combobox").fill("archive swe");
    await palette.getByRole("option", { name: /Archive sweeper/ }).click();
    await expect(page).toHaveURL(new RegExp(`/fleets/${oldest.fleet_id}\\?workspace=`));
  });

  test("fleet and event filters live in the URL and survive a reload", async ({ page, tenant, apiUrl }) => {
    const problems = collectProblems(page);
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: `Filters ${randomUUID().slice(0, 6)}` }),
    );
    const billing = await installFleet(apiUrl, tenant, entry, "Billing digest");
    const paused = await installFleet(apiUrl, tenant, entry, "Billing reconciler");
    await installFleet(apiUrl, tenant, entry, "Support inbox");
    await setFleetStatus(apiUrl, tenant, paused.fleet_id, "paused");
    await messageFleet(apiUrl, tenant, billing.fleet_id, "first");
    await signInByLink(page, tenant);
    // Signed in on the overview; these start from the fleets list.
    await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();

    const filters = page.getByRole("form", { name: "Filter fleets" });
    await filters.getByRole("textbox", { name: "Name" }).fill("billing");
    await filters.getByRole("combobox", { name: "Status" }).selectOption("active");
    await filters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/status=active/);
    await expect(page).toHaveURL(/name=billing/);
    const rows = page.getByRole("table").getByRole("row");
    await expect(page.getByRole("link", { name: "Billing digest" })).toBeVisible();
    await expect(rows).toHaveCount(2);

    await page.reload();
    await expect(filters.getByRole("textbox", { name: "Name" })).toHaveValue("billing");
    await expect(filters.getByRole("combobox", { name: "Status" })).toHaveValue("active");
    await expect(page.getByRole("link", { name: "Billing digest" })).toBeVisible();
    await expect(rows).toHaveCount(2);
    await expect(page.getByText("1 fleet matches in default")).toBeVisible();

    // The events list: status and type filters, kept across a reload.
    await page.getByRole("link", { name: "Billing digest" }).click();
    const eventFilters = page.getByRole("form", { name: "Filter events" });
    await expect(page.getByRole("log", { name: "Events of Billing digest" })).toBeVisible();
    await eventFilters.getByRole("combobox", { name: "Status" }).selectOption("processed");
    await eventFilters.getByRole("combobox", { name: "Type" }).selectOption("chat");
    await eventFilters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/status=processed/);
    await expect(page).toHaveURL(/type=chat/);
    await expect(page.getByText("No events match the filters")).toBeVisible();
    await page.reload();
    await expect(eventFilters.getByRole("combobox", { name: "Status" })).toHaveValue("processed");
    await expect(eventFilters.getByRole("combobox", { name: "Type" })).toHaveValue("chat");
    await expect(page.getByText("No events match the filters")).toBeVisible();
    await eventFilters.getByRole("combobox", { name: "Status" }).selectOption("received");
    await eventFilters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByRole("log", { name: "Events of Billing digest" }).getByRole("row")).toHaveCount(2);

    // The workspace's Events page takes the same filters, in its URL.
    await page.goto(`/events?workspace=${tenant.workspace_id}`);
    const feed = page.getByRole("log", { name: "Events of the workspace" });
    await expect(feed.getByRole("listitem")).toHaveCount(1);
    const eventsFilters = page.getByRole("form", { name: "Filter events" });
    await eventsFilters.getByRole("combobox", { name: "Status" }).selectOption("processed");
    await eventsFilters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/\/events\?.*status=processed/);
    await expect(page.getByText("No events match the filters")).toBeVisible();
    await page.reload();
    await expect(eventsFilters.getByRole("combobox", { name: "Status" })).toHaveValue("processed");
    await expect(page.getByText("No events match the filters")).toBeVisible();
    // What no list takes is refused on its field, before the URL: a control character, a value too long.
    const actorField = eventsFilters.getByRole("textbox", { name: "Actor" });
    await actorField.fill("api_key:\u0000*");
    await eventsFilters.getByRole("button", { name: "Apply filters" }).click();
    await expect(eventsFilters.getByText("Remove the control character")).toBeVisible();
    await actorField.fill("x".repeat(100_000));
    await eventsFilters.getByRole("button", { name: "Apply filters" }).click();
    await expect(eventsFilters.getByText("Use at most 300 characters.")).toBeVisible();
    await expect(page).toHaveURL(/status=processed$/);
    await eventsFilters.getByRole("combobox", { name: "Status" }).selectOption("received");
    await actorField.fill("api_key:*");
    await eventsFilters.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/actor=api_key%3A\*/);
    await expect(feed.getByRole("listitem")).toHaveCount(1);
    await expect(feed.getByRole("listitem")).toContainText("Billing digest");
    await eventsFilters.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).toHaveURL(new RegExp(`/events\\?workspace=${tenant.workspace_id}$`));
    // The page's old address, /activity, goes on to /events with every parameter of its query.
    await page.goto(`/activity?workspace=${tenant.workspace_id}&status=processed&actor=api_key%3A*`);
    await expect(page).toHaveURL(
      new RegExp(`/events\\?workspace=${tenant.workspace_id}&status=processed&actor=api_key%3A\\*$`),
    );
    await expect(eventsFilters.getByRole("combobox", { name: "Status" })).toHaveValue("processed");
    await expect(actorField).toHaveValue("api_key:*");
    expect(problems).toEqual([]);
  });

  test("a new event waits behind an 'N new events' banner instead of shifting the rows", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: `Banner ${randomUUID().slice(0, 6)}` }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry, "Banner fleet");
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "the first");
    await signInByLink(page, tenant);
    // Signed in on the overview; these start from the fleets list.
    await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();
    await page.getByRole("link", { name: "Banner fleet" }).click();
    const log = page.getByRole("log", { name: "Events of Banner fleet" });
    await expect(log.getByRole("row")).toHaveCount(2);

    await messageFleet(apiUrl, tenant, fleet.fleet_id, "the second");
    const banner = page.getByRole("button", { name: "Show 1 new event" });
    await expect(banner).toBeVisible();
    await expect(log.getByRole("row")).toHaveCount(2);
    await banner.click();
    await expect(log.getByRole("row")).toHaveCount(3);
    await expect(banner).toBeHidden();
  });
});
