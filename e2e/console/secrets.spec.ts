import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { seriousViolations } from "../support/axe.ts";
import { collectProblems, expect, openFromNavigation, screenshot, test } from "../support/fixtures.ts";
import type { Tenant } from "../support/fleetctl.ts";

/** Signs in and opens Secrets from the navigation; the tenant's one workspace is chosen and in the URL. */
async function openSecrets(page: Page, tenant: Tenant) {
  await openFromNavigation(page, tenant, "Secrets", "/secrets");
  await expect(page.getByLabel("Workspace")).toHaveValue(tenant.workspace_id);
}

test.describe("Secrets", () => {
  test("a secret is created, listed without its value, replaced and deleted; a taken name is refused", async ({
    page,
    tenant,
    apiUrl,
    request,
  }, testInfo) => {
    const value = `sk-test-${randomUUID()}`;
    const replacement = `sk-live-${randomUUID()}`;
    const problems = collectProblems(page);
    await openSecrets(page, tenant);

    // The entry sits between Connectors and API keys.
    const links = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allInnerTexts();
    const at = (label: string) => links.findIndex((text) => text.startsWith(label));
    expect(at("Secrets")).toBe(at("Connectors") + 1);
    expect(at("API keys")).toBe(at("Secrets") + 1);
    await expect(page.getByRole("link", { name: /Secrets/ })).toHaveAttribute("aria-current", "page");

    await expect(page.getByLabel("Workspace").locator("option:checked")).toHaveText("default");
    await expect(page.getByText("No secrets in default yet")).toBeVisible();
    await screenshot(page, testInfo, "secrets-empty");

    // Create: a provider key with its value in the default "value" row, masked until shown.
    await page.getByRole("button", { name: "Create secret" }).first().click();
    const form = page.getByRole("dialog", { name: "Create a secret" });
    await form.getByLabel("Name").fill("OPENAI_API_KEY");
    await form.getByRole("radio", { name: "Provider API key" }).check();
    await expect(form.getByLabel("Key 1", { exact: true })).toHaveValue("value");
    const secretInput = form.getByLabel("Value 1", { exact: true });
    await expect(secretInput).toHaveAttribute("type", "password");
    await expect(secretInput).toHaveAttribute("autocomplete", "off");
    await secretInput.fill(value);
    // Typed, it is in the field and nowhere in the page's markup, not even the field's value attribute.
    await expect(secretInput).toHaveValue(value);
    expect(await page.content()).not.toContain(value);
    await screenshot(page, testInfo, "create-form");
    const show = form.getByRole("button", { name: "Show value 1" });
    await show.click();
    await expect(show).toHaveAttribute("aria-pressed", "true");
    await expect(secretInput).toHaveAttribute("type", "text");
    await show.click();
    await expect(secretInput).toHaveAttribute("type", "password");
    await form.getByRole("button", { name: "Create secret" }).click();
    await expect(form).toBeHidden();

    const row = page.getByRole("row", { name: /OPENAI_API_KEY/ });
    await expect(row).toContainText("Provider API key");
    await expect(page.getByRole("status").filter({ hasText: "Created OPENAI_API_KEY." })).toBeVisible();
    expect(await page.content()).not.toContain(value);
    await screenshot(page, testInfo, "secrets-created");

    // The API holds it, by name and kind (and, like the page, never shows the value).
    const listed = await request.get(`${apiUrl}/v1/workspaces/${tenant.workspace_id}/secrets`, {
      headers: { authorization: `Bearer ${tenant.api_key}` },
    });
    expect(listed.status()).toBe(200);
    expect((await listed.json()).secrets).toEqual([
      { name: "OPENAI_API_KEY", kind: "provider_api_key", created_at: expect.any(Number) },
    ]);

    await page.reload();
    await expect(page.getByRole("row", { name: /OPENAI_API_KEY/ })).toContainText("Provider API key");
    expect(await page.content()).not.toContain(value);
    await page
      .getByRole("row", { name: /OPENAI_API_KEY/ })
      .locator("time")
      .hover();
    await expect(page.getByRole("tooltip")).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    await expect(page.getByRole("tooltip")).toContainText("(local)");
    await screenshot(page, testInfo, "secrets-list");

    // Reopening the form starts empty: the value went with the dialog.
    await page.getByRole("button", { name: "Create secret" }).click();
    await expect(form.getByLabel("Name")).toHaveValue("");
    await expect(form.getByLabel("Value 1", { exact: true })).toHaveValue("");

    // A taken name: the API's problem, in the dialog, with the name ready to change.
    await form.getByLabel("Name").fill("OPENAI_API_KEY");
    await form.getByLabel("Value 1", { exact: true }).fill("another");
    await form.getByRole("button", { name: "Create secret" }).click();
    const taken = form.getByRole("alert", { name: "Secret exists" });
    await expect(taken).toContainText("UZ-VAULT-005");
    await expect(taken).toContainText("already holds a secret named OPENAI_API_KEY");
    await expect(taken.getByRole("button", { name: "Copy request ID" })).toBeVisible();
    await expect(form.getByLabel("Name")).toBeFocused();
    await screenshot(page, testInfo, "create-name-taken");
    await form.getByRole("button", { name: "Cancel" }).click();
    await expect(form).toBeHidden();

    // Replace, as raw JSON this time; the dialog says the value is replaced whole.
    await page.getByRole("button", { name: "Replace secret OPENAI_API_KEY" }).click();
    const replace = page.getByRole("dialog", { name: "Replace secret OPENAI_API_KEY" });
    await expect(replace).toContainText("The stored value is replaced whole");
    await replace.getByLabel("Value 1", { exact: true }).fill(replacement);
    await replace.getByRole("radio", { name: "JSON" }).check();
    const json = replace.getByLabel("New value as JSON");
    await expect(json).toHaveValue(JSON.stringify({ value: replacement }, null, 2));
    await json.fill(JSON.stringify({ api_key: replacement, organization: "org-e2e" }, null, 2));
    await expect(replace.getByText(/^\d+ B of 4,096 B$/)).toBeVisible();
    expect(await page.content()).not.toContain(replacement);
    await screenshot(page, testInfo, "replace-form");
    await replace.getByRole("button", { name: "Replace secret" }).click();
    await expect(replace).toBeHidden();
    await expect(
      page.getByRole("status").filter({ hasText: "Replaced the value of OPENAI_API_KEY." }),
    ).toBeVisible();
    const content = await page.content();
    expect(content).not.toContain(value);
    expect(content).not.toContain(replacement);

    // Delete, after a confirmation that says who loses access.
    await page.getByRole("button", { name: "Delete secret OPENAI_API_KEY" }).click();
    const remove = page.getByRole("dialog", { name: "Delete secret OPENAI_API_KEY?" });
    await expect(remove).toContainText(/fleets that use OPENAI_API_KEY lose access at once/i);
    await expect(remove.getByRole("button", { name: "Cancel" })).toBeFocused();
    await screenshot(page, testInfo, "delete-confirm");
    await remove.getByRole("button", { name: "Delete secret" }).click();
    await expect(remove).toBeHidden();
    await expect(page.getByRole("row", { name: /OPENAI_API_KEY/ })).toHaveCount(0);
    await expect(page.getByText("No secrets in default yet")).toBeVisible();

    const after = await request.get(`${apiUrl}/v1/workspaces/${tenant.workspace_id}/secrets`, {
      headers: { authorization: `Bearer ${tenant.api_key}` },
    });
    expect((await after.json()).secrets).toEqual([]);
    expect(problems).toEqual([]);
  });

  test("the form says what the API would refuse before sending it", async ({ page, tenant }, testInfo) => {
    await openSecrets(page, tenant);
    const sent: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("secrets.create")) sent.push(req.url());
    });
    await page.getByRole("button", { name: "Create secret" }).first().click();
    const form = page.getByRole("dialog", { name: "Create a secret" });
    const submit = form.getByRole("button", { name: "Create secret" });
    const name = form.getByLabel("Name");

    await submit.click();
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAccessibleDescription(/Enter a name\./);
    await expect(name).toBeFocused();
    await expect(form.getByText("Enter the secret’s value.")).toBeVisible();
    await screenshot(page, testInfo, "create-form-refused");

    await name.fill("9lives");
    await form.getByLabel("Value 1", { exact: true }).fill("x");
    await submit.click();
    await expect(form.getByText("Start the name with a letter or _.")).toBeVisible();
    await name.fill("my secret");
    await submit.click();
    await expect(
      form.getByText("Use only letters, digits, _, . and - (the name has a space)."),
    ).toBeVisible();
    await name.fill("big_one");

    // Over 4 KiB as JSON: said with the size, before anything is sent.
    await form.getByLabel("Value 1", { exact: true }).fill("x".repeat(4100));
    await expect(form.getByText(/^4,11\d B of 4,096 B$/)).toBeVisible();
    await submit.click();
    await expect(form.getByText(/a secret holds at most 4,096 B \(4 KiB\)/)).toBeVisible();
    await expect(form.getByLabel("Value 1", { exact: true })).toBeFocused();

    // JSON that does not parse is refused without quoting it back.
    await form.getByLabel("Value 1", { exact: true }).fill("small");
    await form.getByRole("radio", { name: "JSON" }).check();
    await form.getByLabel("Value as JSON").fill('{"token": "s3cr3t-fragment",}');
    await expect(form.getByText("Not valid JSON yet")).toBeVisible();
    await submit.click();
    await expect(
      form.getByText("The JSON does not parse. Check the quotes, commas and braces."),
    ).toBeVisible();
    await expect(form).not.toContainText("s3cr3t-fragment");
    // Rows cannot hold what does not parse, so the switch back is refused with the reason.
    await form.getByRole("radio", { name: "Key/value" }).click();
    await expect(form.getByText(/cannot be split into rows/)).toBeVisible();
    await expect(form.getByRole("radio", { name: "JSON" })).toBeChecked();
    await form.getByLabel("Value as JSON").fill('{"token": "abc", "retries": 3}');
    await form.getByRole("radio", { name: "Key/value" }).click();
    await expect(form.getByText(/retries holds a number; rows hold text only/)).toBeVisible();
    await expect(form.getByRole("radio", { name: "JSON" })).toBeChecked();
    await screenshot(page, testInfo, "create-json-refused-switch");

    expect(sent).toEqual([]);
    await form.getByRole("button", { name: "Cancel" }).click();
  });

  test("a list that fails shows the problem, never an empty list", async ({ page, tenant }, testInfo) => {
    await openSecrets(page, tenant);
    // A well-formed id of no workspace of this tenant.
    await page.goto("/secrets?workspace=01900000-0000-7000-8000-000000000000");
    const alert = page.getByRole("alert", { name: "Workspace not found" });
    await expect(alert).toContainText("UZ-WORKSPACE-002");
    await expect(alert.getByRole("button", { name: "Copy request ID" })).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
    await expect(page.getByText(/No secrets in/)).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Create secret" })).toHaveCount(0);
    await screenshot(page, testInfo, "secrets-list-error");

    await alert.getByRole("link", { name: "Show the workspace default" }).click();
    await expect(page).toHaveURL(new RegExp(`/secrets\\?workspace=${tenant.workspace_id}$`));
    await expect(page.getByText("No secrets in default yet")).toBeVisible();
  });

  test("the page and its dialogs have no serious or critical violations", async ({
    page,
    tenant,
  }, testInfo) => {
    await openSecrets(page, tenant);
    await expect(page.getByText("No secrets in default yet")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Create secret" }).first().click();
    const form = page.getByRole("dialog", { name: "Create a secret" });
    await form.getByLabel("Name").fill("axe_check");
    await form.getByLabel("Value 1", { exact: true }).fill("axe-value");
    await form.getByRole("button", { name: "Add a field" }).click();
    await expect(form.getByLabel("Key 2", { exact: true })).toBeFocused();
    await form.getByLabel("Key 2", { exact: true }).fill("organization");
    await form.getByLabel("Value 2", { exact: true }).fill("org-axe");
    await form.getByRole("button", { name: "Show value 2" }).click();
    await screenshot(page, testInfo, "create-form-two-rows");
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole("radio", { name: "JSON" }).check();
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole("button", { name: "Create secret" }).click();
    await expect(form).toBeHidden();

    await expect(page.getByRole("row", { name: /axe_check/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Replace secret axe_check" }).click();
    await expect(page.getByRole("dialog", { name: "Replace secret axe_check" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("button", { name: "Delete secret axe_check" }).click();
    await expect(page.getByRole("dialog", { name: "Delete secret axe_check?" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
