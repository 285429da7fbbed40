import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { collectProblems, expect, openFromNavigation, screenshot, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  definition,
  installFleet,
  messageFleet,
  setFleetStatus,
  TestRunner,
} from "../support/fleet-api.ts";
import type { Tenant } from "../support/fleetctl.ts";

/** Signs in and opens Fleets from the navigation; the tenant's one workspace is chosen and in the URL. */
const openFleets = (page: Page, tenant: Tenant) => openFromNavigation(page, tenant, "Fleets", "/fleets");

test.describe("Fleets", () => {
  // The first test walks install, the new fleet's page, the list, a run and a delete on two shared cores.
  test.describe.configure({ timeout: 120_000 });

  test("install asks for a missing credential, which is added in place; pause, message, inspect, delete", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    // Install, a secret added in place, pause, message, inspect and delete, reached from the overview a
    // sign-in lands on: on two busy cores it ran past the default minute (65 s, with 20 s of fixtures).
    test.setTimeout(120_000);
    const problems = collectProblems(page);
    const runner = new TestRunner(apiUrl);
    const name = `Issue triage ${randomUUID().slice(0, 6)}`;
    const reason = "Reads issues and writes labels on the repositories you name.";
    await addTenantEntry(
      apiUrl,
      tenant,
      definition({
        name,
        description: "Labels new GitHub issues every weekday morning.",
        credentials: [{ name: "GITHUB_TOKEN", reason }],
        runnerLabels: [runner.label],
        tools: ["github.issues"],
        triggers: [{ cron: "0 9 * * 1-5", timezone: "Europe/Berlin", message: "Triage the new issues." }],
      }),
    );

    await openFleets(page, tenant);
    const links = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allInnerTexts();
    expect(links.findIndex((text) => text.startsWith("Library"))).toBe(
      links.findIndex((text) => text.startsWith("Fleets")) + 1,
    );
    await expect(page.getByText("No fleets in default yet")).toBeVisible();
    await screenshot(page, testInfo, "fleets-empty");

    // Choose the entry: its description and what it needs are on the option.
    await page.getByRole("button", { name: "Install fleet" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Install a fleet" });
    const option = dialog.getByRole("radio", { name });
    await expect(option).toHaveAccessibleDescription(
      /Labels new GitHub issues.*Needs the credential GITHUB_TOKEN/,
    );
    await option.check();
    await screenshot(page, testInfo, "install-choose");
    // Every install the page asks for: Continue only opens the review (it once also submitted the install
    // form, since React turned the clicked button into the submit button within its own click).
    const installs: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/trpc/fleets.create")) installs.push(request.url());
    });
    await dialog.getByRole("button", { name: "Continue" }).click();

    // Review: the credential by name and reason, marked missing.
    const review = page.getByRole("dialog", { name: `Install ${name}` });
    const credential = review
      .getByRole("list", { name: "Required credentials" })
      .getByRole("listitem")
      .filter({ hasText: "GITHUB_TOKEN" });
    await expect(credential).toContainText(reason);
    await expect(credential).toContainText("Missing");
    await expect(review.getByLabel("Fleet name")).toHaveValue(name);
    // Continue left with its step: focus is on the new step's field, not on the page.
    await expect(review.getByLabel("Fleet name")).toBeFocused();
    await screenshot(page, testInfo, "install-review-missing");

    // A name of spaces is no name: the field says so, and nothing is sent (the entry's name is not used).
    await review.getByLabel("Fleet name").fill("   ");
    await review.getByRole("button", { name: "Install fleet" }).click();
    await expect(review.getByLabel("Fleet name")).toHaveAccessibleDescription(/Enter a name for the fleet/);
    await expect(review.getByLabel("Fleet name")).toBeFocused();
    await expect(review.getByRole("alert")).toHaveCount(0);
    expect(installs).toHaveLength(0);
    await review.getByLabel("Fleet name").fill(name);
    await expect(review.getByLabel("Fleet name")).not.toHaveAccessibleDescription(/Enter a name/);

    // Installing anyway: the API's 424 names the credential, shown with its reason.
    await review.getByRole("button", { name: "Install fleet" }).click();
    const refused = review.getByRole("alert", { name: "Missing credential" });
    await expect(refused).toContainText("UZ-BUNDLE-003");
    await expect(refused.getByRole("list", { name: "Missing credentials" })).toContainText(
      `GITHUB_TOKEN: ${reason}`,
    );
    await expect(refused.getByRole("button", { name: "Copy request ID" })).toBeVisible();
    expect(installs).toHaveLength(1);
    await screenshot(page, testInfo, "install-refused-424");

    // Add it in place, then install.
    await review.getByRole("button", { name: "Create secret GITHUB_TOKEN" }).click();
    const secretForm = review.getByRole("form", { name: "Create secret GITHUB_TOKEN" });
    await secretForm.getByLabel("Value 1", { exact: true }).fill(`ghp_${randomUUID()}`);
    await screenshot(page, testInfo, "install-add-secret");
    await secretForm.getByRole("button", { name: "Create secret GITHUB_TOKEN" }).click();
    await expect(
      review.getByRole("status").filter({ hasText: "Created the secret GITHUB_TOKEN" }),
    ).toBeVisible();
    await expect(credential).toContainText("In default");
    await expect(review.getByRole("alert")).toHaveCount(0);
    await review.getByRole("button", { name: "Install fleet" }).click();
    await expect(review).toBeHidden();

    // The new fleet opens; back on the list it is there, active.
    await expect(page).toHaveURL(new RegExp(`/fleets/[0-9a-f-]{36}\\?workspace=${tenant.workspace_id}$`));
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/fleets\\?workspace=${tenant.workspace_id}$`));
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row).toHaveAttribute("data-status", "active");
    await expect(row.getByRole("cell").nth(1)).toHaveText("0");
    await row.locator("time").first().hover();
    await expect(page.getByRole("tooltip").first()).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    await screenshot(page, testInfo, "fleets-list");

    // Pause from the list: the badge moves at once and stays once the API agrees.
    await row.getByRole("button", { name: `Pause fleet ${name}` }).click();
    await expect(row).toHaveAttribute("data-status", "paused");
    await expect(row.getByRole("button", { name: `Resume fleet ${name}` })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveAttribute("data-status", "paused");

    // The fleet's page: paused, so the message box is disabled and says why.
    await page.getByRole("link", { name }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/fleets/[0-9a-f-]{36}\\?workspace=${tenant.workspace_id}$`));
    const box = page.getByLabel(`Message to ${name}`);
    await expect(box).toBeDisabled();
    await expect(box).toHaveAccessibleDescription(/paused and does not accept messages\. Resume it/);
    await expect(page.getByRole("button", { name: "Send message" })).toBeDisabled();
    await expect(page.getByRole("region", { name: "Definition" })).toContainText("Triage the new issues.");
    await expect(page.getByRole("region", { name: "Definition" })).toContainText("Europe/Berlin");
    await expect(page.getByText("No events yet")).toBeVisible();
    await screenshot(page, testInfo, "fleet-paused");

    await page.getByRole("button", { name: `Resume fleet ${name}` }).click();
    await expect(page.locator(".fleet-header [data-status]")).toHaveAttribute("data-status", "active");
    await expect(box).toBeEnabled();
    const message = `Triage issue #${randomUUID().slice(0, 4)} first, it blocks the release.`;
    await box.fill(message);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Sent as event" })).toBeVisible();
    await expect(box).toHaveValue("");

    const log = page.getByRole("log", { name: `Events of ${name}` });
    const eventRow = log.getByRole("row", { name: /Message/ });
    await expect(eventRow).toHaveAttribute("data-status", "received");

    // A runner takes it and reports the answer; the log follows.
    const lease = await runner.lease();
    expect(JSON.parse(lease.event.request_json)).toEqual({ message });
    await runner.report(lease, {
      outcome: "processed",
      response_text: "Labelled the issue bug and urgent, and put it first in today's summary.",
      tokens: 1234,
      wall_ms: 2150,
      cost_nanos: 4_200_000,
    });
    await expect(eventRow).toHaveAttribute("data-status", "processed", { timeout: 15_000 });
    await expect(eventRow).toContainText("1,234");
    await expect(eventRow).toContainText("2.1 s");
    await screenshot(page, testInfo, "fleet-events");

    // Inspect it: the request pretty-printed, the answer, the meters; the event id is in the URL.
    await eventRow.getByRole("link", { name: /^Inspect message event/ }).click();
    const inspect = page.getByRole("dialog", { name: "Message event" });
    await expect(page).toHaveURL(new RegExp(`event=${lease.event_id}`));
    const request = inspect.getByRole("region", { name: "Request" });
    await expect(request).toContainText(`"message": ${JSON.stringify(message)}`);
    await expect(inspect.getByRole("region", { name: "Response" })).toContainText("Labelled the issue bug");
    await expect(inspect).toContainText("1,234");
    await expect(inspect).toContainText("$0.0042");
    await expect(inspect.getByRole("button", { name: "Copy diagnostic" })).toBeVisible();
    await inspect.getByText("Diagnostic text").click();
    await expect(inspect.locator(".diagnostic pre")).toContainText(
      `event ${lease.event_id} (chat, processed)`,
    );
    await screenshot(page, testInfo, "event-inspect");
    await inspect.getByRole("button", { name: "Close", exact: true }).click();
    await expect(inspect).toBeHidden();
    await expect(page).not.toHaveURL(/event=/);

    // Delete, after a confirmation that says what goes with it.
    await page.getByRole("button", { name: `Delete fleet ${name}` }).click();
    const remove = page.getByRole("dialog", { name: `Delete fleet ${name}?` });
    await expect(remove).toContainText("its events, its memories and its schedules go with it");
    await expect(remove.getByRole("button", { name: "Cancel" })).toBeFocused();
    await screenshot(page, testInfo, "delete-confirm");
    await remove.getByRole("button", { name: "Delete fleet" }).click();
    await expect(page).toHaveURL(new RegExp(`/fleets\\?workspace=${tenant.workspace_id}$`));
    await expect(page.getByText("No fleets in default yet")).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("identical failures collapse; filters, memories and a typed kill; a stale move is refused and refreshed", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const runner = new TestRunner(apiUrl);
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Digest", description: "Writes a daily digest.", runnerLabels: [runner.label] }),
    );
    const digest = await installFleet(apiUrl, tenant, entry, "Digest");
    const spare = await installFleet(apiUrl, tenant, entry, "Digest spare");

    // Three failures of the same kind in a row, then one answer; the first run also remembers two things.
    for (const [index, text] of ["one", "two", "three", "four"].entries()) {
      await messageFleet(apiUrl, tenant, digest.fleet_id, `Write the digest, take ${text}.`);
      const lease = await runner.lease();
      if (index === 0) {
        await runner.remember(lease, "repositories", "The acme api and the acme console", "config");
        await runner.remember(lease, "tone", "Short sentences, no emoji.", "style");
      }
      await runner.report(
        lease,
        index < 3
          ? {
              outcome: "fleet_error",
              failure_label: "provider_timeout",
              failure_detail: "The model did not answer in 60 s.",
            }
          : {
              outcome: "processed",
              response_text: "Digest posted.",
              tokens: 90,
              wall_ms: 640,
              cost_nanos: 310,
            },
      );
    }

    await openFleets(page, tenant);
    await page.getByRole("link", { name: "Digest", exact: true }).click();
    const log = page.getByRole("log", { name: "Events of Digest" });
    await expect(log.getByRole("row")).toHaveCount(3); // the header, the answer, one collapsed failure
    const failure = log.getByRole("row", { name: /provider_timeout/ });
    await expect(failure).toContainText("×3");
    await screenshot(page, testInfo, "events-collapsed");
    await failure.getByRole("button", { name: "Show 2 more identical failures" }).click();
    await expect(log.locator("tr[data-repeat]")).toHaveCount(2);
    await expect(failure.getByRole("button", { name: "Hide repeats identical failures" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    await screenshot(page, testInfo, "events-expanded");

    // Filters go in the URL; the form refuses what the API would.
    await page.getByLabel("Since").fill("yesterday");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByLabel("Since")).toHaveAccessibleDescription(/Use a duration/);
    await page.getByLabel("Since").fill("1h");
    await page.getByLabel("Actor").fill("user:*");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/actor=user%3A\*&since=1h/);
    await expect(page.getByText("No events match the filters")).toBeVisible();
    await page.getByLabel("Actor").fill("api_key:*");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(log.getByRole("row", { name: /provider_timeout/ })).toContainText("×3");
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page).not.toHaveURL(/actor=/);

    // Memories: a tab of its own, filtered by category and searched, in the URL.
    await page.getByRole("tab", { name: "Memories" }).click();
    await expect(page).toHaveURL(/tab=memories/);
    const memories = page.getByRole("table", { name: /Memories of the fleet Digest/ });
    await expect(memories.getByRole("row")).toHaveCount(3);
    await screenshot(page, testInfo, "memories");
    await page.getByLabel("Category").fill("style");
    await page.getByRole("button", { name: "Search memories" }).click();
    await expect(page).toHaveURL(/category=style/);
    await expect(memories.getByRole("row")).toHaveCount(2);
    await expect(memories).toContainText("Short sentences");
    await page.getByRole("link", { name: "Clear" }).click();
    // The filters clear once the URL has: typing before that would search within the old category.
    await expect(page).not.toHaveURL(/category=/);
    await expect(page.getByLabel("Category")).toHaveValue("");
    await page.getByLabel("Search").fill("acme console");
    await page.getByRole("button", { name: "Search memories" }).click();
    await expect(memories.getByRole("row", { name: /repositories/ })).toBeVisible();
    await expect(memories.getByRole("row")).toHaveCount(2);
    // The tabs move with the arrow keys, the focus with the selection.
    await page.getByRole("tab", { name: "Memories" }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(page.getByRole("tab", { name: "Events" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tab", { name: "Events" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Memories" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowLeft");
    await expect(page).not.toHaveURL(/tab=memories/);

    // Single-key shortcuts for what is on screen, listed by ?, with an off switch kept in the browser.
    await page.getByRole("heading", { level: 1, name: "Digest" }).click();
    await page.keyboard.press("]");
    await expect(page.getByRole("tab", { name: "Memories" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("[");
    await expect(page.getByRole("tab", { name: "Events" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("m");
    await expect(page.getByLabel("Message to Digest")).toBeFocused();
    await page.keyboard.type("]");
    await expect(page.getByLabel("Message to Digest")).toHaveValue("]");
    await page.getByLabel("Message to Digest").fill("");
    await page.getByRole("heading", { level: 1, name: "Digest" }).click();
    await page.keyboard.press("?");
    const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(sheet).toContainText("Write a message to the fleet");
    await expect(sheet).toContainText("Filter the events by actor");
    await screenshot(page, testInfo, "shortcuts");
    await sheet.getByLabel("Use single-key shortcuts in this browser").uncheck();
    await sheet.getByRole("button", { name: "Close", exact: true }).click();
    await page.keyboard.press("]");
    await expect(page.getByRole("tab", { name: "Events" })).toHaveAttribute("aria-selected", "true");
    await page.reload();
    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    await expect(sheet.getByLabel("Use single-key shortcuts in this browser")).not.toBeChecked();
    await sheet.getByLabel("Use single-key shortcuts in this browser").check();
    await sheet.getByRole("button", { name: "Close", exact: true }).click();

    // Kill asks for the fleet's name before it acts.
    await page.getByRole("button", { name: "Kill fleet Digest" }).click();
    const kill = page.getByRole("dialog", { name: "Kill fleet Digest?" });
    await expect(kill).toContainText("Killing is terminal");
    const confirm = kill.getByRole("button", { name: "Kill fleet" });
    await expect(confirm).toBeDisabled();
    await kill.getByLabel("Type Digest to confirm").fill("digest");
    await expect(confirm).toBeDisabled();
    await kill.getByLabel("Type Digest to confirm").fill("Digest");
    await expect(confirm).toBeEnabled();
    await screenshot(page, testInfo, "kill-confirm");
    await confirm.click();
    await expect(kill).toBeHidden();
    await expect(page.locator(".fleet-header [data-status]")).toHaveAttribute("data-status", "killed");
    await expect(page.getByText("The fleet was killed and accepts no more work.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Resume fleet Digest" })).toHaveCount(0);

    // A move the list offers that went stale: the API refuses (409), the list refetches, the problem stays.
    // A fresh load, so no refetch of the list is under way when the fleet is killed behind its back.
    const listed = page.waitForResponse((response) => response.url().includes("fleets.list"));
    await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
    await listed;
    const spareRow = page.getByRole("row", { name: /Digest spare/ });
    await expect(spareRow).toHaveAttribute("data-status", "active");
    await setFleetStatus(apiUrl, tenant, spare.fleet_id, "killed");
    await spareRow.getByRole("button", { name: "Pause fleet Digest spare" }).click();
    const stale = page.getByRole("alert", { name: "Fleet state forbids this" });
    await expect(stale).toContainText("A killed fleet cannot become paused.");
    await expect(stale.getByRole("button", { name: "Copy request ID" })).toBeVisible();
    await expect(spareRow).toHaveAttribute("data-status", "killed");
    await screenshot(page, testInfo, "stale-move-409");

    // The row menu: only what a killed fleet still allows, keyboard in and out.
    const more = spareRow.getByRole("button", { name: "More actions for fleet Digest spare" });
    await more.focus();
    await page.keyboard.press("ArrowDown");
    const menu = page.getByRole("menu", { name: "More actions for fleet Digest spare" });
    await expect(menu.getByRole("menuitem")).toHaveText(["Delete fleet…"]);
    await expect(menu.getByRole("menuitem", { name: "Delete fleet…" })).toBeFocused();
    await screenshot(page, testInfo, "row-menu");
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(more).toBeFocused();

    // Pages of fleets: the cursor (and the page size) in the URL.
    await page.goto(`/fleets?workspace=${tenant.workspace_id}&limit=1`);
    const rows = page.getByRole("table").getByRole("row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText("Digest spare");
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/starting_after=[^&]+&limit=1$/);
    await expect(rows.nth(1)).toHaveAttribute("data-fleet-id", digest.fleet_id);
    await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);
    await page.getByRole("link", { name: "First page" }).click();
    await expect(rows.nth(1)).toContainText("Digest spare");
  });
});
