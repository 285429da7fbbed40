import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, screenshot, signInByLink, test } from "../support/fixtures.ts";
import { addTenantEntry, definition, installFleet } from "../support/fleet-api.ts";
import type { Tenant } from "../support/fleetctl.ts";
import { listSchedules, patchSchedule } from "../support/schedule-api.ts";

/**
 * The fleets here require a runner label no runner has, so the cron events their schedules might fire
 * wait unleased instead of reaching another spec's runner.
 */
const nobody = () => `e2e-nobody-${randomUUID().slice(0, 8)}`;

async function openSchedules(page: Page, tenant: Tenant, fleetId: string, name: string) {
  await signInByLink(page, tenant);
  await page.goto(`/fleets/${fleetId}?workspace=${tenant.workspace_id}&tab=schedules`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Schedules" })).toHaveAttribute("aria-selected", "true");
}

/** A schedule's row, found by its cron in words (the row header). */
const rowOf = (page: Page, words: string) => page.getByRole("row", { name: new RegExp(`^${words}`) });

async function openMenu(page: Page, words: string, item: string) {
  await rowOf(page, words)
    .getByRole("button", { name: `More actions for schedule ${words}` })
    .click();
  await page.getByRole("menuitem", { name: item }).click();
}

test.describe("Schedules", () => {
  test("create with cron in words and a zone; next fire and sync; edit (also a stale one), pause, resume, delete", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Standup", runnerLabels: [nobody()] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await openSchedules(page, tenant, fleet.fleet_id, "Standup");
    await expect(page.getByText("No schedules yet")).toBeVisible();
    await screenshot(page, testInfo, "schedules-empty");

    // Create: the cron reads back in words as it is typed.
    await page.getByRole("button", { name: "Create schedule" }).click();
    const create = page.getByRole("dialog", { name: "Schedule Standup" });
    await create.getByLabel("Cron").fill("0 9 * *");
    await expect(create.getByText("Not a five-field expression yet.")).toBeVisible();
    await create.getByLabel("Cron").fill("0 9 * * 1-5");
    await expect(create.getByText("At 09:00, Monday through Friday")).toBeVisible();
    await create.getByLabel("Time zone").selectOption("Europe/Berlin");
    await create.getByLabel("Message").fill("Post the standup summary.");
    await screenshot(page, testInfo, "schedule-create");
    await create.getByRole("button", { name: "Create schedule" }).click();
    await expect(create).toBeHidden();
    await expect(
      page.getByRole("status").filter({ hasText: "Created the schedule: At 09:00, Monday through Friday." }),
    ).toBeVisible();

    // The row: pushed to the scheduler (the pill), the next fire in Berlin and in UTC, added by a person.
    const weekday = rowOf(page, "At 09:00, Monday through Friday");
    await expect(weekday).toHaveAttribute("data-sync", "synced", { timeout: 15_000 });
    await expect(weekday.getByText("Synced")).toBeVisible();
    await expect(weekday).toHaveAttribute("data-status", "active");
    await expect(weekday).toContainText("0 9 * * 1-5");
    await expect(weekday).toContainText("Post the standup summary.");
    await expect(weekday).toContainText("Created by a person");
    const next = weekday.locator(".next-fire");
    await expect(next).toContainText(/in \d+ (min|h|days)/);
    await expect(next).toContainText("09:00");
    await expect(next).toContainText("(Europe/Berlin)");
    await expect(next).toContainText(/\d{4}-\d{2}-\d{2} 0[78]:00:00 UTC/);

    // A second one that fires once.
    await page.getByRole("button", { name: "Create schedule" }).click();
    await create.getByLabel("Cron").fill("0 0 1 1 *");
    await create.getByLabel("Time zone").selectOption("UTC");
    await create.getByLabel("Message").fill("Archive last year's notes.");
    await create.getByLabel("Fire once, then remove the schedule").check();
    await create.getByRole("button", { name: "Create schedule" }).click();
    const yearly = rowOf(page, "At 00:00, on day 1 of the month, in January");
    await expect(yearly.getByText("Once", { exact: true })).toBeVisible();
    await expect(yearly).toHaveAttribute("data-sync", "synced", { timeout: 15_000 });
    await screenshot(page, testInfo, "schedules-list");

    // Edit the weekday one: a new cron, read back in words on the row.
    await openMenu(page, "At 09:00, Monday through Friday", "Edit schedule…");
    const edit = page.getByRole("dialog", { name: "Edit schedule" });
    await expect(edit.getByLabel("Cron")).toHaveValue("0 9 * * 1-5");
    await expect(edit.getByLabel("Time zone")).toHaveValue("Europe/Berlin");
    await edit.getByLabel("Cron").fill("30 7 * * *");
    await edit.getByRole("button", { name: "Save schedule" }).click();
    await expect(edit).toBeHidden();
    const daily = rowOf(page, "At 07:30, every day");
    await expect(daily).toHaveAttribute("data-sync", "synced", { timeout: 15_000 });

    // A stale edit: someone changed the schedule after the dialog opened. The 412 refreshes the form.
    await openMenu(page, "At 07:30, every day", "Edit schedule…");
    await expect(edit.getByLabel("Cron")).toHaveValue("30 7 * * *");
    const id = (await daily.getAttribute("data-schedule-id"))!;
    await patchSchedule(apiUrl, tenant, fleet.fleet_id, id, { message: "Changed by someone else." });
    await edit.getByLabel("Cron").fill("0 8 * * *");
    await edit.getByRole("button", { name: "Save schedule" }).click();
    await expect(edit).toContainText("The schedule changed since this page read it");
    await expect(edit.getByLabel("Message")).toHaveValue("Changed by someone else.");
    await expect(edit.getByLabel("Cron")).toHaveValue("30 7 * * *");
    await screenshot(page, testInfo, "schedule-stale-edit");
    await edit.getByLabel("Cron").fill("0 8 * * *");
    await edit.getByRole("button", { name: "Save schedule" }).click();
    await expect(edit).toBeHidden();
    const eight = rowOf(page, "At 08:00, every day");
    await expect(eight).toContainText("Changed by someone else.");
    await expect(eight).toHaveAttribute("data-sync", "synced", { timeout: 15_000 });

    // Pause: no next fire while paused; resume brings it back.
    await eight.getByRole("button", { name: "Pause schedule At 08:00, every day" }).click();
    await expect(eight).toHaveAttribute("data-status", "paused");
    await expect(eight).toContainText("None while paused");
    await eight.getByRole("button", { name: "Resume schedule At 08:00, every day" }).click();
    await expect(eight).toHaveAttribute("data-status", "active");
    await expect(eight.locator(".next-fire")).toContainText("08:00");

    // Delete, after a confirmation that says what stops.
    await openMenu(page, "At 08:00, every day", "Delete schedule…");
    const remove = page.getByRole("dialog", { name: "Delete this schedule?" });
    await expect(remove).toContainText("stops firing at once");
    await expect(remove.getByRole("button", { name: "Cancel" })).toBeFocused();
    await remove.getByRole("button", { name: "Delete schedule" }).click();
    await expect(remove).toBeHidden();
    await expect(rowOf(page, "At 08:00, every day")).toHaveCount(0, { timeout: 15_000 });
    await expect(yearly).toBeVisible();
  });

  test("a trigger schedule comes from the fleet's document; an edit is an override, and can be undone", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({
        name: "Morning digest",
        runnerLabels: [nobody()],
        triggers: [{ cron: "0 6 * * *", timezone: "Europe/Paris", message: "Write the morning digest." }],
      }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await openSchedules(page, tenant, fleet.fleet_id, "Morning digest");

    const row = rowOf(page, "At 06:00, every day");
    await expect(row).toHaveAttribute("data-source", "trigger");
    await expect(row).toContainText("From the fleet's document");
    await expect(row).toContainText("As the document says");
    await expect(row).toContainText("Europe/Paris");

    // Sync now pushes it at once instead of waiting for the reconciler.
    await openMenu(page, "At 06:00, every day", "Sync now");
    await expect(row).toHaveAttribute("data-sync", "synced", { timeout: 15_000 });
    await expect(page.getByRole("status").filter({ hasText: /Synced|Pushed again/ })).toBeVisible();

    // The edit names the document's values; what changes is kept as an override.
    await openMenu(page, "At 06:00, every day", "Edit schedule…");
    const edit = page.getByRole("dialog", { name: "Edit schedule" });
    await expect(edit).toContainText("Your changes are kept as an override");
    await expect(edit.getByText("The fleet's document says").first()).toContainText("0 6 * * *");
    await edit.getByLabel("Cron").fill("15 7 * * *");
    await expect(edit.getByRole("button", { name: "Use the document's cron" })).toBeVisible();
    await edit.getByRole("button", { name: "Save schedule" }).click();
    await expect(edit).toBeHidden();
    const overridden = rowOf(page, "At 07:15, every day");
    await expect(overridden).toContainText("Overridden: cron 15 7 * * *");
    await expect(overridden).toHaveAttribute("data-source", "trigger");
    await expect(overridden).toHaveAttribute("data-sync", "synced", { timeout: 15_000 });

    // Pausing a trigger schedule is an override too.
    await overridden.getByRole("button", { name: "Pause schedule At 07:15, every day" }).click();
    await expect(overridden).toHaveAttribute("data-status", "paused");
    await expect(overridden).toContainText("status paused");
    await expect(overridden).toHaveAttribute("data-sync", "synced", { timeout: 15_000 });
    await screenshot(page, testInfo, "schedules-trigger-override");

    // Back to the document's cron: that field's override is dropped.
    await openMenu(page, "At 07:15, every day", "Edit schedule…");
    await edit.getByRole("button", { name: "Use the document's cron" }).click();
    await expect(edit.getByLabel("Cron")).toHaveValue("0 6 * * *");
    await edit.getByRole("button", { name: "Save schedule" }).click();
    await expect(edit).toBeHidden();
    const back = rowOf(page, "At 06:00, every day");
    await expect(back).not.toContainText("cron 15 7");
    await expect(back).toContainText("status paused");
    const [stored] = (await listSchedules(apiUrl, tenant, fleet.fleet_id)).items;
    expect(stored?.source).toBe("trigger");
  });
});
