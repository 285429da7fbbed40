import type { Page } from "@playwright/test";
import { seriousViolations } from "../support/axe.ts";
import { collectProblems, expect, looksAtSizes, openFromNavigation, test } from "../support/fixtures.ts";
import { call } from "../support/fleet-api.ts";
import type { Tenant } from "../support/fleetctl.ts";

/** A public IP literal: passes the API's address check with no DNS (nothing in these tests is sent to it). */
const URL_A = "https://1.1.1.1/fleet-hooks";

/** Signs in and opens Webhooks from the navigation; the tenant's one workspace is chosen and in the URL. */
async function openWebhooks(page: Page, tenant: Tenant) {
  await openFromNavigation(page, tenant, "Webhooks", "/webhooks");
  await expect(page.getByLabel("Workspace")).toHaveValue(tenant.workspace_id);
}

interface Listed {
  items: { id: string; description: string; event_types: string[]; enabled: boolean }[];
}

const listed = (apiUrl: string, tenant: Tenant) =>
  call<Listed>(apiUrl, tenant.api_key, "GET", `/v1/workspaces/${tenant.workspace_id}/webhook-endpoints`);

test.describe("Webhooks", () => {
  test("an endpoint is added with its secret shown once, edited, disabled and enabled, its secret rotated, and deleted", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const problems = collectProblems(page);
    await openWebhooks(page, tenant);
    const links = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allInnerTexts();
    const at = (label: string) => links.findIndex((text) => text.startsWith(label));
    expect(at("Webhooks")).toBe(at("API keys") + 1);
    await expect(page.getByText("No webhook endpoints in default yet")).toBeVisible();
    await looksAtSizes(page, "webhooks-empty");

    // Nothing ticked: said in the form, and nothing is sent.
    await page.getByRole("button", { name: "Add endpoint" }).first().click();
    const form = page.getByRole("dialog", { name: "Add a webhook endpoint" });
    await form.getByLabel("URL", { exact: true }).fill(URL_A);
    await form.getByRole("button", { name: "Create endpoint" }).click();
    await expect(form.getByText("Choose at least one event type.")).toBeVisible();
    expect((await listed(apiUrl, tenant)).items).toHaveLength(0);

    // A URL the API refuses (not https): its problem under the form, nothing created.
    await form.getByLabel("URL", { exact: true }).fill("http://hooks.example.test/fleet");
    await form.getByRole("checkbox", { name: /gate\.decided/ }).check();
    await form.getByRole("button", { name: "Create endpoint" }).click();
    await expect(form.getByRole("alert")).toContainText("UZ-WEBHOOK-008");
    expect((await listed(apiUrl, tenant)).items).toHaveLength(0);

    await form.getByLabel("URL", { exact: true }).fill(URL_A);
    await form.getByLabel("Description").fill("Deploy bot");
    await form.getByRole("checkbox", { name: /event\.failed/ }).check();
    await looksAtSizes(page, "webhooks-form");
    await form.getByRole("button", { name: "Create endpoint" }).click();

    // The secret, once: Esc does not close it.
    const reveal = page.getByRole("dialog", { name: "Copy the signing secret" });
    const secretField = reveal.getByRole("textbox", { name: "Signing secret of 1.1.1.1/fleet-hooks" });
    await expect(secretField).toHaveValue(/^whsec_/);
    const secret = await secretField.inputValue();
    await page.keyboard.press("Escape");
    await expect(reveal).toBeVisible();
    await looksAtSizes(page, "webhooks-secret");
    await reveal.getByRole("button", { name: "Done" }).click();
    await expect(reveal).toBeHidden();
    await expect(page.getByRole("status")).toContainText("Created 1.1.1.1/fleet-hooks.");
    expect(await page.content()).not.toContain(secret);

    const row = page.getByRole("row", { name: /1\.1\.1\.1\/fleet-hooks/ });
    await expect(row).toContainText("Deploy bot");
    await expect(row).toContainText("gate.decided");
    await expect(row).toContainText("event.failed");
    await expect(row).toContainText("All fleets");
    await expect(row).toHaveAttribute("data-state", "enabled");
    await looksAtSizes(page, "webhooks-list");

    // Edit: the form starts from the endpoint; the change is the API's.
    await page.getByRole("button", { name: "Edit webhook endpoint 1.1.1.1/fleet-hooks" }).click();
    const edit = page.getByRole("dialog", { name: "Edit webhook endpoint 1.1.1.1/fleet-hooks" });
    await expect(edit.getByLabel("URL", { exact: true })).toHaveValue(URL_A);
    await expect(edit.getByRole("checkbox", { name: /gate\.decided/ })).toBeChecked();
    await edit.getByRole("checkbox", { name: /gate\.decided/ }).uncheck();
    await edit.getByLabel("Description").fill("Deploy bot, failures only");
    await edit.getByRole("button", { name: "Save endpoint" }).click();
    await expect(edit).toBeHidden();
    await expect(row).toContainText("Deploy bot, failures only");
    await expect(row).not.toContainText("gate.decided");
    const [saved] = (await listed(apiUrl, tenant)).items;
    expect(saved).toMatchObject({ description: "Deploy bot, failures only", event_types: ["event.failed"] });

    // Disable and enable from the row's menu.
    const more = page.getByRole("button", { name: "More actions for webhook endpoint 1.1.1.1/fleet-hooks" });
    await more.click();
    await page.getByRole("menuitem", { name: "Disable" }).click();
    await expect(row).toHaveAttribute("data-state", "disabled");
    await expect(page.getByRole("status")).toContainText("Disabled 1.1.1.1/fleet-hooks.");
    await more.click();
    await page.getByRole("menuitem", { name: "Enable" }).click();
    await expect(row).toHaveAttribute("data-state", "enabled");

    // Rotate: asked first, then the new secret once, another than the first.
    await more.click();
    await page.getByRole("menuitem", { name: "Rotate secret" }).click();
    const rotate = page.getByRole("dialog", { name: "Rotate the signing secret of 1.1.1.1/fleet-hooks?" });
    await expect(rotate).toContainText("24 hours");
    await rotate.getByRole("button", { name: "Rotate secret" }).click();
    await expect(secretField).toHaveValue(/^whsec_/);
    expect(await secretField.inputValue()).not.toBe(secret);
    await reveal.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("status")).toContainText("Rotated the secret of 1.1.1.1/fleet-hooks.");

    // Delete: asked, then gone from the list and the API.
    await more.click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const remove = page.getByRole("dialog", { name: "Delete webhook endpoint 1.1.1.1/fleet-hooks?" });
    await remove.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page.getByText("No webhook endpoints in default yet")).toBeVisible();
    expect((await listed(apiUrl, tenant)).items).toHaveLength(0);
    expect(problems).toEqual([]);
  });

  test("the page and its dialogs have no serious or critical violations", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    await call(apiUrl, tenant.api_key, "POST", `/v1/workspaces/${tenant.workspace_id}/webhook-endpoints`, {
      url: URL_A,
      event_types: ["event.failed"],
      description: "Axe check",
    });
    await openWebhooks(page, tenant);
    await expect(page.getByRole("row", { name: /Axe check/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Add endpoint" }).first().click();
    await expect(page.getByRole("dialog", { name: "Add a webhook endpoint" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "More actions for webhook endpoint 1.1.1.1/fleet-hooks" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await expect(
      page.getByRole("dialog", { name: "Delete webhook endpoint 1.1.1.1/fleet-hooks?" }),
    ).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
