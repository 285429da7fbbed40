import type { Page } from "@playwright/test";
import { seriousViolations } from "../support/axe.ts";
import { expect, screenshot, signInByLink, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  requesterToken,
  setFleetStatus,
  TestRunner,
} from "../support/fleet-api.ts";
import { operatorToken } from "../support/fleetctl.ts";
import { ManualRunner, noMechanisms } from "../support/runner-api.ts";

test.describe("Accessibility", () => {
  // Each axe pass takes seconds on two shared cores; the longer tests make six or seven.
  test.describe.configure({ timeout: 120_000 });

  test("the sign-in page has no serious or critical violations", async ({ page }) => {
    await page.goto("/sign-in");
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the keys page and its dialogs have no serious or critical violations", async ({ page, tenant }) => {
    await signInByLink(page, tenant);
    await page.goto("/api-keys");
    await expect(page.getByRole("row", { name: /bootstrap/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Create API key" }).click();
    await page.getByRole("dialog").getByRole("textbox", { name: "Name" }).fill("axe-check");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByRole("dialog", { name: "Copy your new API key" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the fleets pages and their dialogs have no serious or critical violations", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    // Eleven axe passes over the fleets pages: minutes on a busy two-core machine.
    test.setTimeout(300_000);
    const runner = new TestRunner(apiUrl);
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({
        name: "Axe fleet",
        description: "Checked for accessibility.",
        credentials: [{ name: "AXE_TOKEN", reason: "Reads the pages it checks." }],
        runnerLabels: [runner.label],
        triggers: [{ cron: "*/30 * * * *", message: "Check again." }],
      }),
    );
    await signInByLink(page, tenant);
    await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
    await expect(page.getByText("No fleets in default yet")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // The install dialog: the choice, the review with a missing credential, its inline form, the 424.
    await page.getByRole("button", { name: "Install fleet" }).first().click();
    await page.getByRole("radio", { name: "Axe fleet" }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Continue" }).click();
    const review = page.getByRole("dialog", { name: "Install Axe fleet" });
    await review.getByRole("button", { name: "Install fleet" }).click();
    await expect(review.getByRole("alert", { name: "Missing credential" })).toBeVisible();
    await review.getByRole("button", { name: "Create secret AXE_TOKEN" }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await review.getByLabel("Value 1", { exact: true }).fill("axe-value");
    await review.getByRole("button", { name: "Create secret AXE_TOKEN" }).click();
    await expect(
      review
        .getByRole("list", { name: "Required credentials" })
        .getByRole("listitem")
        .filter({ hasText: "AXE_TOKEN" }),
    ).toContainText("In default");
    await review.getByRole("button", { name: "Install fleet" }).click();
    await expect(review).toBeHidden();
    // The new fleet opens; back to the list.
    await expect(page.getByRole("heading", { level: 1, name: "Axe fleet" })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole("heading", { level: 1, name: "Fleets" })).toBeVisible();

    // The list with a fleet, and its row menu open.
    const row = page.getByRole("row", { name: /Axe fleet/ });
    await expect(row).toHaveAttribute("data-status", "active");
    await row.getByRole("button", { name: "More actions for fleet Axe fleet" }).click();
    await expect(page.getByRole("menu", { name: "More actions for fleet Axe fleet" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(row.getByRole("button", { name: "More actions for fleet Axe fleet" })).toBeFocused();

    // The fleet's page with an answered and a failed event, the inspect dialog, memories, kill.
    const fleetId = (await row.getAttribute("data-fleet-id"))!;
    for (const outcome of ["processed", "fleet_error"] as const) {
      await messageFleet(apiUrl, tenant, fleetId, `Check ${outcome}.`);
      const lease = await runner.lease();
      if (outcome === "processed")
        await runner.remember(lease, "pages", "The home page and the docs.", "scope");
      await runner.report(
        lease,
        outcome === "processed"
          ? {
              outcome,
              response_text: '{"checked": 2, "violations": 0}',
              tokens: 50,
              wall_ms: 900,
              cost_nanos: 1200,
            }
          : { outcome, failure_label: "tool_denied", failure_detail: "The browser tool was not granted." },
      );
    }
    await row.getByRole("link", { name: "Axe fleet" }).click();
    // The page was open (empty) right after the install, so the events that came since wait behind the
    // "new events" banner rather than shifting in; take them in.
    const fresh = page.getByRole("button", { name: /^Show \d+ new events?$/ });
    const log = page.getByRole("log", { name: "Events of Axe fleet" });
    await expect(fresh.or(log.getByRole("row").first())).toBeVisible();
    if (await fresh.isVisible()) await fresh.click();
    await expect(log.getByRole("row")).toHaveCount(3);
    expect(await seriousViolations(page)).toEqual([]);
    await page
      .getByRole("link", { name: /^Inspect message event/ })
      .first()
      .click();
    await expect(page.getByRole("region", { name: "Request" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Close", exact: true }).click();
    await page.getByRole("tab", { name: "Memories" }).click();
    await expect(page.getByRole("row", { name: /pages/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Keyboard shortcuts" }).click();
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).click();
    await page.getByRole("button", { name: "Kill fleet Axe fleet" }).click();
    await expect(page.getByRole("dialog", { name: "Kill fleet Axe fleet?" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Cancel" }).click();

    // Paused: the message box disabled with its reason.
    const other = await installFleet(apiUrl, tenant, entry, "Axe paused");
    await setFleetStatus(apiUrl, tenant, other.fleet_id, "paused");
    await page.goto(`/fleets/${other.fleet_id}?workspace=${tenant.workspace_id}`);
    await expect(page.getByLabel("Message to Axe paused")).toBeDisabled();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the library pages and their dialogs have no serious or critical violations", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({
        name: "Axe entry",
        credentials: [{ name: "AXE_TOKEN", reason: "Reads the pages it checks." }],
        tools: ["browser.open"],
      }),
    );
    await signInByLink(page, tenant);
    await page.goto(`/library?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("row", { name: /Axe entry/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Add to library" }).click();
    const dialog = page.getByRole("dialog", { name: "Add to the library" });
    await dialog.getByRole("button", { name: "Add to library" }).click();
    await expect(dialog.getByText("Choose the definition file.")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("radio", { name: "Paste the text" }).check();
    await dialog.getByLabel("Definition", { exact: true }).fill("---\nname: Broken\n");
    await dialog.getByRole("button", { name: "Add to library" }).click();
    await expect(dialog.getByRole("alert")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("radio", { name: "Git repository" }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await page.goto(`/library/${entry.id}?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Axe entry" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
  test("the runners pages and their dialogs have no serious or critical violations", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const admin = await operatorToken("runner:admin");
    const runner = new ManualRunner(apiUrl);
    await runner.enrol(admin);
    await runner.heartbeat({ ...noMechanisms, landlock: true });
    await signInByLink(page, tenant);

    // Operator access, empty and with a refusal.
    await page.goto("/runners");
    const access = page.getByRole("region", { name: "Operator access" });
    await expect(access).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await access.getByLabel("Operator token").fill("not-a-token");
    await access.getByRole("button", { name: "Use operator token" }).click();
    await expect(access.getByRole("alert")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // The list with a degraded runner, filtered.
    await access.getByLabel("Operator token").fill(admin);
    await access.getByRole("button", { name: "Use operator token" }).click();
    await expect(page.getByRole("row", { name: new RegExp(runner.hostId) })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto("/runners?degraded=true");
    await expect(page.getByRole("row", { name: new RegExp(runner.hostId) })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // The runner's page, a disabled action's tooltip, the policy and revoke dialogs.
    await page.getByRole("link", { name: runner.hostId }).click();
    await expect(page.getByRole("heading", { level: 1, name: runner.hostId })).toBeVisible();
    await page.getByRole("button", { name: `Delete runner ${runner.hostId}` }).focus();
    await expect(page.getByRole("tooltip", { name: /Only a revoked runner/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: `Edit policy of runner ${runner.hostId}` }).click();
    const policy = page.getByRole("dialog", { name: `Policy of ${runner.hostId}` });
    await policy.getByLabel("Worker count").fill("two");
    await policy.getByRole("button", { name: "Save policy" }).click();
    await expect(policy.getByText("Enter a whole number.")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await policy.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: `Revoke runner ${runner.hostId}` }).click();
    await expect(page.getByRole("dialog", { name: `Revoke runner ${runner.hostId}?` })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the schedules tab and its dialog have no serious or critical violations", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({
        name: "Axe schedules",
        runnerLabels: ["e2e-nobody-axe"],
        triggers: [{ cron: "0 6 * * 1-5", timezone: "Europe/Paris", message: "Check the pages." }],
      }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await signInByLink(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}&tab=schedules`);
    await expect(page.getByRole("row", { name: /^At 06:00, Monday through Friday/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Create schedule" }).click();
    const create = page.getByRole("dialog", { name: "Schedule Axe schedules" });
    await create.getByLabel("Cron").fill("61 * * * *");
    await create.getByRole("button", { name: "Create schedule" }).click();
    await expect(create.getByText(/^Cron minute must be 0–59, not "61"/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await create.getByRole("button", { name: "Cancel" }).click();

    await page
      .getByRole("button", { name: "More actions for schedule At 06:00, Monday through Friday" })
      .click();
    await page.getByRole("menuitem", { name: "Edit schedule…" }).click();
    await expect(page.getByRole("dialog", { name: "Edit schedule" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the approvals inbox and the audit log have no serious or critical violations", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const runner = new TestRunner(apiUrl);
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Axe gates", runnerLabels: [runner.label] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await messageFleet(
      apiUrl,
      tenant,
      fleet.fleet_id,
      "approve: deploy",
      await requesterToken(apiUrl, tenant),
    );
    const lease = await runner.lease();
    await signInByLink(page, tenant);
    await page.goto(`/approvals?workspace=${tenant.workspace_id}`);
    await expect(page.getByText("Nothing waits for an answer in default")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await runner.openGate(lease, { action_name: "first" });
    await runner.openGate(lease, { action_name: "second" });
    await page.reload();
    const pane = page.getByRole("region", { name: "deploy · first" });
    await expect(pane.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await pane.getByRole("button", { name: "Approve with changes…" }).click();
    await expect(pane.getByLabel("Action to approve")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Approve 2" }).click();
    await expect(page.getByRole("region", { name: "Outcome of the answers" })).toContainText(
      "2 of 2 answered",
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("tab", { name: "Approved" }).click();
    await expect(page.getByRole("region", { name: "deploy · first" })).toContainText("Approved by");
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`/audit?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("row", { name: /approval\.approve/ }).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Since", { exact: true }).fill("yesterday");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText(/^A duration back from now/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("the fleet's grants tab and its revoke dialog have no serious or critical violations", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Axe grants", runnerLabels: ["e2e-nobody-axe-grants"] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    for (const service of ["github", "slack"]) {
      await call(
        apiUrl,
        tenant.api_key,
        "POST",
        `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleet_id}/integration-requests`,
        {
          service,
          reason: `Reads ${service}.`,
        },
      );
    }
    await signInByLink(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}&tab=grants`);
    await expect(page.getByRole("row", { name: /slack/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Revoke grant github" }).click();
    await expect(page.getByRole("dialog", { name: "Revoke github for Axe grants?" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test.describe("dark", () => {
    /** The page's background as painted, to tell which theme is in force. */
    const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const DARK_BG = "rgb(15, 18, 22)";
    const LIGHT_BG = "rgb(246, 247, 249)";

    test("followed from the system, the pages and their dialogs have no serious or critical violations", async ({
      page,
      tenant,
      apiUrl,
    }, testInfo) => {
      // An axe pass per page and dialog: minutes on a busy two-core machine.
      test.setTimeout(300_000);
      await page.emulateMedia({ colorScheme: "dark" });
      await page.goto("/sign-in");
      expect(await background(page)).toBe(DARK_BG);
      expect(await seriousViolations(page)).toEqual([]);

      const runner = new TestRunner(apiUrl);
      const entry = await addTenantEntry(
        apiUrl,
        tenant,
        definition({ name: "Dark fleet", runnerLabels: [runner.label] }),
      );
      const fleet = await installFleet(apiUrl, tenant, entry);
      await messageFleet(apiUrl, tenant, fleet.fleet_id, "approve: deploy");
      const lease = await runner.lease();
      await runner.openGate(lease, { action_name: "dark" });
      await signInByLink(page, tenant);
      expect(await background(page)).toBe(DARK_BG);
      // Signed in on the overview: its panels first, then the fleets list.
      await expect(page.getByRole("region", { name: /^Pending approvals/ })).toContainText("Dark fleet");
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, testInfo, "overview-dark");
      await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
      await expect(page.getByRole("row", { name: /Dark fleet/ })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "More actions for fleet Dark fleet" }).click();
      await expect(page.getByRole("menu", { name: "More actions for fleet Dark fleet" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");

      const ws = `workspace=${tenant.workspace_id}`;
      await page.goto(`/fleets/${fleet.fleet_id}?${ws}`);
      await expect(page.getByRole("log", { name: "Events of Dark fleet" }).getByRole("row")).toHaveCount(2);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, testInfo, "fleet-dark");

      await page.goto(`/approvals?${ws}`);
      await expect(page.getByRole("region", { name: "deploy · dark" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, testInfo, "approvals-dark");

      // A refusal in a dialog: the problem's colours on the dark surface.
      await page.goto("/api-keys");
      await expect(page.getByRole("row", { name: /bootstrap/ })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`/library?${ws}`);
      await page.getByRole("button", { name: "Add to library" }).click();
      const add = page.getByRole("dialog", { name: "Add to the library" });
      await add.getByRole("button", { name: "Add to library" }).click();
      await expect(add.getByText("Choose the definition file.")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await add.getByRole("radio", { name: "Paste the text" }).check();
      await add.getByLabel("Definition", { exact: true }).fill("---\nname: Broken\n");
      await add.getByRole("button", { name: "Add to library" }).click();
      await expect(add.getByRole("alert")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, testInfo, "library-refusal-dark");
      await add.getByRole("button", { name: "Cancel" }).click();

      for (const path of ["/runners", "/library", "/members", "/billing", `/audit?${ws}`, "/connectors"]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await expect(page.locator("main [data-loading]")).toHaveCount(0);
        expect(await seriousViolations(page), path).toEqual([]);
      }
    });

    test("chosen with the switch, remembered, applied before the first paint, and back to the system's", async ({
      page,
      tenant,
    }) => {
      await page.emulateMedia({ colorScheme: "light" });
      // What the root says when the document is parsed, before any of the console's scripts has run.
      await page.addInitScript(() => {
        document.addEventListener("DOMContentLoaded", () => {
          (window as unknown as { firstTheme: string }).firstTheme =
            document.documentElement.dataset.theme ?? "none";
        });
      });
      await signInByLink(page, tenant);
      await page.goto("/api-keys");
      await expect(page.getByRole("row", { name: /bootstrap/ })).toBeVisible();
      const theme = page.getByRole("radiogroup", { name: "Theme" });
      await expect(theme.getByRole("radio", { name: "System" })).toBeChecked();
      expect(await background(page)).toBe(LIGHT_BG);

      await theme.getByRole("radio", { name: "Dark" }).check();
      expect(await background(page)).toBe(DARK_BG);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Create API key" }).click();
      await page.getByRole("dialog").getByRole("textbox", { name: "Name" }).fill("dark-check");
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

      // Reloaded: dark from the first parse, and the switch says so.
      await page.reload();
      expect(await page.evaluate(() => (window as unknown as { firstTheme: string }).firstTheme)).toBe(
        "dark",
      );
      await expect(
        page.getByRole("radiogroup", { name: "Theme" }).getByRole("radio", { name: "Dark" }),
      ).toBeChecked();
      expect(await background(page)).toBe(DARK_BG);

      // Light on a dark system, then the system's again.
      await page.emulateMedia({ colorScheme: "dark" });
      await theme.getByRole("radio", { name: "Light" }).check();
      expect(await background(page)).toBe(LIGHT_BG);
      expect(await seriousViolations(page)).toEqual([]);
      await theme.getByRole("radio", { name: "System" }).check();
      expect(await background(page)).toBe(DARK_BG);
      expect(await page.evaluate(() => localStorage.getItem("fleet-theme"))).toBeNull();
    });
  });
});
