import { expect, openFromNavigation, test } from "../support/fixtures.ts";
import { addTenantEntry, definition, installFleet } from "../support/fleet-api.ts";

test.describe("Forms", () => {
  test("a refusal goes once the value it answered is corrected: the API's, a field's and a filter's", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    await openFromNavigation(page, tenant, "Secrets", "/secrets");

    // The API's refusal (a taken name) goes at the first edit: it answered values no longer in the form.
    const form = page.getByRole("dialog", { name: "Create a secret" });
    for (const attempt of [1, 2]) {
      await page.getByRole("button", { name: "Create secret" }).first().click();
      await form.getByLabel("Name").fill("STALE_TOKEN");
      await form.getByLabel("Value 1", { exact: true }).fill(`value-${attempt}`);
      await form.getByRole("button", { name: "Create secret" }).click();
      if (attempt === 1) await expect(form).toBeHidden();
    }
    const taken = form.getByRole("alert", { name: "Secret exists" });
    await expect(taken).toBeVisible();
    await form.getByLabel("Name").press("End");
    await form.getByLabel("Name").pressSequentially("_2");
    await expect(taken).toBeHidden();
    await form.getByRole("button", { name: "Create secret" }).click();
    await expect(form).toBeHidden();
    await expect(page.getByRole("row", { name: /STALE_TOKEN_2/ })).toBeVisible();

    // A field's own check: its message goes when the field changes, and comes back if still wrong.
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Stale errors", runnerLabels: ["e2e-nobody-stale"] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}&tab=schedules`);
    await page.getByRole("button", { name: "Create schedule" }).click();
    const create = page.getByRole("dialog", { name: "Schedule Stale errors" });
    await create.getByLabel("Cron").fill("61 * * * *");
    await create.getByRole("button", { name: "Create schedule" }).click();
    const cronError = create.getByText(/^Cron minute must be 0–59, not "61"/);
    await expect(cronError).toBeVisible();
    await expect(create.getByLabel("Cron")).toHaveAttribute("aria-invalid", "true");
    await create.getByLabel("Cron").fill("0 9 * * 1-5");
    await expect(cronError).toBeHidden();
    await expect(create.getByLabel("Cron")).not.toHaveAttribute("aria-invalid", "true");
    await create.getByRole("button", { name: "Cancel" }).click();

    // A filter bar: the refused field's message goes as it is edited.
    await page.goto(`/audit?workspace=${tenant.workspace_id}`);
    await page.getByLabel("Since", { exact: true }).fill("yesterday");
    await page.getByRole("button", { name: "Apply filters" }).click();
    const hint = page.getByText(/^A duration back from now/);
    await expect(hint).toBeVisible();
    await page.getByLabel("Since", { exact: true }).fill("2h");
    await expect(hint).toBeHidden();
  });
});
