import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { seriousViolations } from "../support/axe.ts";
import { collectProblems, expect, openFromNavigation, screenshot, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  setFleetStatus,
  TestRunner,
} from "../support/fleet-api.ts";
import { operatorToken } from "../support/fleetctl.ts";

/** Pastes a token into the Operator access form, which posts it to the console's route handler. */
async function pasteOperatorToken(page: Page, token: string) {
  const access = page.getByRole("region", { name: "Operator access" });
  await access.getByLabel("Operator token").fill(token);
  await access.getByRole("button", { name: "Use operator token" }).click();
}

test.describe("Models", () => {
  test("the catalogue for a member, the provider filter in the URL, add and remove as an operator, and the provider's refusals in words", async ({
    page,
    tenant,
  }, testInfo) => {
    const problems = collectProblems(page);
    const name = `e2e-model-${randomUUID().slice(0, 8)}`;
    await openFromNavigation(page, tenant, "Models");

    // A member reads the catalogue; editing needs an operator token, and the page says how to get one.
    await expect(page.getByRole("button", { name: "Add model" })).toHaveCount(0);
    const access = page.getByRole("region", { name: "Operator access" });
    await expect(access).toContainText('pnpm fleetctl operator --scopes "model:admin" --json');
    await expect(page.getByRole("region", { name: "Your provider" })).toContainText("platform default");

    await pasteOperatorToken(page, await operatorToken("model:admin"));
    await expect(page).toHaveURL(/\/models$/);
    await expect(page.getByRole("region", { name: "Operator token" })).toContainText("model:admin");

    // Add a model: prices typed in dollars per million tokens.
    await page.getByRole("button", { name: "Add model" }).click();
    const add = page.getByRole("dialog", { name: "Add a model" });
    await add.getByLabel("Provider").selectOption("openai_compatible");
    await add.getByLabel("Model name").fill(name);
    await add.getByLabel("Context size (tokens)").fill("128000");
    await add.getByLabel("Input price (USD per million tokens)", { exact: true }).fill("abc");
    await add.getByLabel("Cached input price (USD per million tokens)").fill("0.05");
    await add.getByLabel("Output price (USD per million tokens)").fill("1.5");
    await add.getByRole("button", { name: "Add model" }).click();
    const input = add.getByLabel("Input price (USD per million tokens)", { exact: true });
    await expect(input).toHaveAttribute("aria-invalid", "true");
    await input.fill("0.5");
    // Corrected, the stale error goes at once.
    await expect(input).not.toHaveAttribute("aria-invalid", "true");
    await add.getByRole("button", { name: "Add model" }).click();
    await expect(add).toBeHidden();

    // Filter by provider: the choice is in the URL, and only that provider's rows show.
    const filter = page.getByRole("navigation", { name: "Filter by provider" });
    await filter.getByRole("link", { name: "OpenAI-compatible" }).click();
    await expect(page).toHaveURL(/\/models\?provider=openai_compatible$/);
    await expect(filter.getByRole("link", { name: "OpenAI-compatible" })).toHaveAttribute(
      "aria-current",
      "true",
    );
    const row = page.locator(`tr[data-model="${name}"]`);
    await expect(row).toContainText("128,000 tokens");
    await expect(row).toContainText("$0.50");
    await expect(row).toContainText("$0.05");
    await expect(row).toContainText("$1.50");
    await expect(page.locator('tbody tr:not([data-provider="openai_compatible"])')).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, "models");
    // On a phone the table scrolls inside its card; the page never gets wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row).toBeAttached();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, testInfo, "models-phone");
    await page.setViewportSize({ width: 1440, height: 900 });

    // The tenant's provider: the address guard's refusals in words, not codes.
    const provider = page.getByRole("region", { name: "Your provider" });
    await provider.getByRole("button", { name: "Set provider" }).click();
    const set = page.getByRole("dialog", { name: "Set your provider" });
    await set.getByLabel("Provider").selectOption("openai_compatible");
    await set.getByLabel("Model").selectOption(name);
    await set.getByLabel("Base URL").fill("http://llm.example.com/v1");
    await set.getByRole("button", { name: "Save provider" }).click();
    await expect(set.getByRole("alert")).toContainText("must start with https://");
    await set.getByLabel("Base URL").fill("https://10.0.0.1/v1");
    await set.getByRole("button", { name: "Save provider" }).click();
    await expect(set.getByRole("alert")).toContainText("private or local network");
    await expect(set.getByRole("alert")).not.toContainText("UZ-");
    await screenshot(page, testInfo, "provider-refused");
    await set.getByRole("button", { name: "Cancel" }).click();

    // Remove the model again.
    await page.getByRole("button", { name: `Remove model ${name}` }).click();
    const remove = page.getByRole("dialog", { name: `Remove model ${name}?` });
    await remove.getByRole("button", { name: "Remove model" }).click();
    await expect(remove).toBeHidden();
    await expect(row).toHaveCount(0);
    expect(problems).toEqual([]);
  });

  test("runs a finished event again from its inspect dialog, and the new run opens", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const problems = collectProblems(page);
    const runner = new TestRunner(apiUrl);
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Rerun", runnerLabels: [runner.label] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    const sent = await messageFleet(apiUrl, tenant, fleet.fleet_id, "Summarise the open incidents");
    const lease = await runner.lease();
    await runner.report(lease, {
      outcome: "fleet_error",
      failure_label: "timeout",
      failure_detail: "The model timed out.",
    });

    await openFromNavigation(page, tenant, "Fleets");
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}&event=${sent.event_id}`);
    const inspect = page.getByRole("dialog", { name: "Message event" });
    await expect(inspect).toContainText("The model timed out.");
    await inspect.getByRole("button", { name: `Run event ${sent.event_id.slice(0, 8)} again` }).click();

    // The new event opens: another id in the URL, waiting, and it names the run it repeats.
    await expect(page).not.toHaveURL(new RegExp(`event=${sent.event_id}`));
    await expect(page).toHaveURL(/event=[0-9a-f-]{36}/);
    const newId = new URL(page.url()).searchParams.get("event")!;
    await expect(inspect).toContainText("Runs again");
    await expect(inspect.getByRole("link", { name: `event ${sent.event_id.slice(0, 8)}…` })).toBeVisible();
    await expect(inspect).toContainText("waits for a runner");
    // Not finished yet: the button says why it is unavailable.
    await expect(
      inspect.getByRole("button", { name: `Run event ${newId.slice(0, 8)} again` }),
    ).toHaveAccessibleDescription("Only a finished run can be run again.");
    await screenshot(page, testInfo, "run-again");

    // A paused fleet takes no new run: the refusal shows in the dialog, and nothing opens.
    await setFleetStatus(apiUrl, tenant, fleet.fleet_id, "paused");
    await inspect.getByRole("link", { name: `event ${sent.event_id.slice(0, 8)}…` }).click();
    await expect(page).toHaveURL(new RegExp(`event=${sent.event_id}`));
    await inspect.getByRole("button", { name: `Run event ${sent.event_id.slice(0, 8)} again` }).click();
    await expect(inspect.getByRole("alert")).toContainText("paused");
    await expect(page).toHaveURL(new RegExp(`event=${sent.event_id}`));
    await setFleetStatus(apiUrl, tenant, fleet.fleet_id, "active");

    // It is work like any other: the runner leases it, with the same request.
    const again = await runner.lease();
    expect(again.event_id).toBe(newId);
    expect(JSON.parse(again.event.request_json)).toEqual({ message: "Summarise the open incidents" });
    const read = await call<{ retry_of?: string }>(
      apiUrl,
      tenant.api_key,
      "GET",
      `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleet_id}/events/${newId}`,
    );
    expect(read.retry_of).toBe(sent.event_id);
    expect(problems).toEqual([]);
  });
});
