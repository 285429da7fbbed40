import { randomUUID } from "node:crypto";
import { seriousViolations } from "../support/axe.ts";
import { collectProblems, expect, openFromNavigation, screenshot, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  TestRunner,
} from "../support/fleet-api.ts";
import { operatorToken } from "../support/fleetctl.ts";

test.describe("Billing", () => {
  test("shows the balance, the spend chart with its table, the budgets and the charges page by page", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    // The axe pass alone can take tens of seconds on a loaded machine.
    test.setTimeout(150_000);
    const problems = collectProblems(page);
    const runner = new TestRunner(apiUrl);
    const name = `Invoice helper ${randomUUID().slice(0, 6)}`;
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name, description: "Answers billing questions.", runnerLabels: [runner.label] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry, name);
    // Three runs at $1.00, $1.25 and $1.50, then a budget of $3.00 the fleet has gone past.
    for (const cost of [1_000_000_000, 1_250_000_000, 1_500_000_000]) {
      await messageFleet(apiUrl, tenant, fleet.fleet_id, `invoice ${cost}`);
      const lease = await runner.lease();
      await runner.report(lease, {
        outcome: "processed",
        response_text: "done",
        tokens: 1_000,
        cost_nanos: cost,
      });
    }
    await call(
      apiUrl,
      await operatorToken("credit:write"),
      "POST",
      `/v1/admin/tenants/${tenant.tenant_id}/credits`,
      {
        amount_nanos: 10_000_000_000,
        reference: `e2e-${randomUUID()}`,
      },
    );
    await call(
      apiUrl,
      tenant.api_key,
      "PATCH",
      `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleet_id}/budget`,
      { period_budget_nanos: 3_000_000_000, run_budget_nanos: 2_000_000_000 },
    );

    await openFromNavigation(page, tenant, "Billing");
    const figures = page.getByRole("region", { name: "Balance and spend" });
    await expect(figures).toContainText("$6.25"); // $10 credited, $3.75 charged
    await expect(figures).toContainText("$3.75");
    await expect(figures).toContainText("1 over budget");

    const chart = page.getByRole("img", { name: /Spend per day per fleet in \d{4}-\d{2}/ });
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAccessibleDescription(/\$3\.75 spent in .* by 1 fleet/);
    await expect(page.getByRole("list", { name: "Fleets in the chart" })).toContainText(name);
    await page.getByText("Show the figures as a table").click();
    const today = new Date().toISOString().slice(0, 10);
    const dayRow = page.getByRole("row", { name: new RegExp(today) });
    await expect(dayRow.getByRole("cell").first()).toHaveText("$3.75");

    const budgets = page.getByRole("table", { name: "Fleet budgets this period" });
    const budgetRow = budgets.getByRole("row", { name: new RegExp(name) });
    await expect(budgetRow).toContainText("Over budget");
    await expect(budgetRow).toContainText("$3.75 of $3.00 (125%)");
    await expect(budgetRow).toContainText("$2.00");
    await screenshot(page, testInfo, "billing");

    const charges = page.getByRole("table", { name: /Charges, newest first/ });
    await expect(charges.getByRole("row")).toHaveCount(4); // a header and three charges
    await expect(charges.getByRole("row").nth(1)).toContainText("$1.50");

    // Two a page: the cursor lives in the URL, and the last page has no next.
    await page.goto("/billing?limit=2");
    await expect(charges.getByRole("row")).toHaveCount(3);
    await page
      .getByRole("navigation", { name: "Pages of charges" })
      .getByRole("link", { name: "Next page" })
      .click();
    await expect(page).toHaveURL(/starting_after=/);
    await expect(charges.getByRole("row")).toHaveCount(2);
    await expect(charges.getByRole("row").nth(1)).toContainText("$1.00");
    await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);
    await page.getByRole("link", { name: "First page" }).click();
    await expect(charges.getByRole("row").nth(1)).toContainText("$1.50");

    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  test("sets a fleet's budget from its page, refusing an amount that is not one", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    test.setTimeout(120_000);
    const problems = collectProblems(page);
    const name = `Budgeted helper ${randomUUID().slice(0, 6)}`;
    const entry = await addTenantEntry(apiUrl, tenant, definition({ name, description: "Has a budget." }));
    const fleet = await installFleet(apiUrl, tenant, entry, name);
    await openFromNavigation(page, tenant, "Fleets", "/fleets");
    await page.getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

    await page.getByRole("button", { name: `Budget of fleet ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Budget of ${name}` });
    await expect(dialog.getByLabel("Alert at (percent of the monthly budget)")).toHaveValue("50, 80, 100");
    await dialog.getByLabel("Budget per month (USD)").fill("twelve");
    await dialog.getByRole("button", { name: "Save budget" }).click();
    await expect(
      dialog.getByText("An amount in dollars, such as 25 or 12.50; empty for none."),
    ).toBeVisible();
    await dialog.getByLabel("Budget per month (USD)").fill("12.50");
    await expect(dialog.getByText("An amount in dollars, such as 25 or 12.50; empty for none.")).toBeHidden();
    await dialog.getByLabel("Cap per run (USD)").fill("0.75");
    await dialog.getByLabel("Alert at (percent of the monthly budget)").fill("90, 50");
    await screenshot(page, testInfo, "budget-dialog");
    await dialog.getByRole("button", { name: "Save budget" }).click();
    await expect(dialog).toBeHidden();

    const budget = await call<Record<string, unknown>>(
      apiUrl,
      tenant.api_key,
      "GET",
      `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleet_id}/budget`,
    );
    expect(budget).toMatchObject({
      period_budget_nanos: 12_500_000_000,
      run_budget_nanos: 750_000_000,
      alert_percents: [50, 90],
    });
    expect(problems).toEqual([]);
  });
});
