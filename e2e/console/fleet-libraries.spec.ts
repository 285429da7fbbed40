import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, openFromNavigation, screenshot, signInByLink, test } from "../support/fixtures.ts";
import { addPlatformEntry, addTenantEntry, definition } from "../support/fleet-api.ts";
import type { Tenant } from "../support/fleetctl.ts";

/** Signs in and opens Library from the navigation; the tenant's one workspace is chosen and in the URL. */
const openLibrary = (page: Page, tenant: Tenant) => openFromNavigation(page, tenant, "Library", "/library");

test.describe("Library", () => {
  test("entries are added by paste and by upload, listed with their source, and read in full", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    // The platform's entries are every workspace's; other specs add theirs too, so look for this one by name.
    const platformName = `Platform digest ${randomUUID().slice(0, 6)}`;
    await addPlatformEntry(
      apiUrl,
      // It requires nothing, not even a runner label (no fleet is installed from it here).
      definition({
        name: platformName,
        description: "Offered to every workspace by the operator.",
        runnerLabels: [],
      }),
    );
    await openLibrary(page, tenant);
    const platformRow = page.getByRole("row", { name: new RegExp(platformName) });
    await expect(platformRow).toHaveAttribute("data-visibility", "platform");
    await expect(platformRow).toContainText("Platform");
    await expect(platformRow).toContainText("Nothing");

    // Paste a definition.
    const pasted = `Release notes ${randomUUID().slice(0, 6)}`;
    await page.getByRole("button", { name: "Add to library" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add to the library" });
    await dialog.getByRole("radio", { name: "Paste the text" }).check();
    await dialog.getByLabel("Definition", { exact: true }).fill(
      definition({
        name: pasted,
        description: "Drafts release notes from merged pull requests.",
        credentials: [{ name: "GITHUB_TOKEN", reason: "Reads the merged pull requests." }],
        tools: ["github.pulls"],
        triggers: [{ cron: "0 16 * * 5", timezone: "UTC", message: "Draft this week's notes." }],
        instructions: "# Release notes\n\nGroup the changes by area; one line each.",
      }),
    );
    await screenshot(page, testInfo, "add-paste");
    await dialog.getByRole("button", { name: "Add to library" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: `Added ${pasted}.` })).toBeVisible();
    const pastedRow = page.getByRole("row", { name: new RegExp(pasted) });
    await expect(pastedRow).toHaveAttribute("data-visibility", "tenant");
    await expect(pastedRow).toContainText("1 credential · 1 tool");
    await expect(pastedRow).toContainText("GITHUB_TOKEN");

    // Upload a file.
    const uploaded = `Standup ${randomUUID().slice(0, 6)}`;
    await page.getByRole("button", { name: "Add to library" }).first().click();
    await expect(dialog.getByRole("radio", { name: "Upload a file" })).toBeChecked();
    await dialog.getByLabel("Definition file").setInputFiles({
      name: "fleet.md",
      mimeType: "text/markdown",
      buffer: Buffer.from(definition({ name: uploaded, description: "Posts the standup summary." })),
    });
    await expect(dialog.getByText(/^fleet\.md · \d+ bytes$/)).toBeVisible();
    await screenshot(page, testInfo, "add-upload");
    await dialog.getByRole("button", { name: "Add to library" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("row", { name: new RegExp(uploaded) })).toHaveAttribute(
      "data-visibility",
      "tenant",
    );
    await screenshot(page, testInfo, "library-list");

    // The entry in full: instructions, triggers, each credential with its reason; install from there.
    await page.getByRole("link", { name: pasted }).click();
    await expect(page.getByRole("heading", { level: 1, name: pasted })).toBeVisible();
    await expect(page.getByRole("region", { name: "Instructions" })).toContainText(
      "Group the changes by area",
    );
    await expect(page.getByRole("region", { name: "Definition" })).toContainText("0 16 * * 5");
    await expect(page.getByRole("listitem").filter({ hasText: "GITHUB_TOKEN" })).toContainText(
      "Reads the merged pull requests.",
    );
    await expect(page.getByText(/Uploaded · sha256 [0-9a-f]{12}…/)).toBeVisible();
    await screenshot(page, testInfo, "library-entry");
    await page.getByRole("button", { name: "Install this fleet" }).click();
    const install = page.getByRole("dialog", { name: `Install ${pasted}` });
    await expect(
      install
        .getByRole("list", { name: "Required credentials" })
        .getByRole("listitem")
        .filter({ hasText: "GITHUB_TOKEN" }),
    ).toContainText("Missing");
    await install.getByRole("button", { name: "Back" }).click();
    await expect(page.getByRole("dialog", { name: "Install a fleet" })).toBeVisible();
    await page.keyboard.press("Escape");
  });

  test("a refused definition shows the API's problem and is not added", async ({
    page,
    tenant,
  }, testInfo) => {
    await openLibrary(page, tenant);
    await page.getByRole("button", { name: "Add to library" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add to the library" });

    // Nothing chosen: said on the field, nothing sent.
    await dialog.getByRole("button", { name: "Add to library" }).click();
    await expect(dialog.getByLabel("Definition file")).toHaveAccessibleDescription(
      /Choose the definition file\./,
    );

    // A cron expression of four fields: the API names the field.
    await dialog.getByRole("radio", { name: "Paste the text" }).check();
    await dialog
      .getByLabel("Definition", { exact: true })
      .fill(definition({ name: "Broken", triggers: [{ cron: "0 9 * *", message: "Wake up." }] }));
    await dialog.getByRole("button", { name: "Add to library" }).click();
    const invalid = dialog.getByRole("alert", { name: "Invalid fleet definition" });
    await expect(invalid).toContainText("UZ-LIBRARY-010");
    await expect(invalid).toContainText("triggers[0].cron");
    await expect(invalid.getByRole("button", { name: "Copy request ID" })).toBeVisible();
    await screenshot(page, testInfo, "add-refused-definition");

    // A repository the service will not fetch.
    await dialog.getByRole("radio", { name: "Git repository" }).check();
    await expect(invalid).toBeHidden();
    await dialog.getByLabel("Repository URL").fill("http://example.com/acme/fleets.git");
    await dialog.getByRole("button", { name: "Add to library" }).click();
    const refused = dialog.getByRole("alert", { name: "Repository source refused" });
    await expect(refused).toContainText("UZ-LIBRARY-012");
    await screenshot(page, testInfo, "add-refused-git");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByText("The library is empty").or(page.getByRole("table"))).toBeVisible();
    await expect(page.getByRole("row", { name: /Broken/ })).toHaveCount(0);
  });

  test("the list pages by cursor, the cursor and its page size in the URL", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    for (const name of ["Paging one", "Paging two"]) {
      await addTenantEntry(apiUrl, tenant, definition({ name }));
    }
    await signInByLink(page, tenant);
    await page.goto(`/library?workspace=${tenant.workspace_id}&limit=1`);
    const rows = page.getByRole("table").getByRole("row");
    await expect(rows).toHaveCount(2);
    const firstName = (await rows.nth(1).getByRole("link").textContent()) ?? "";
    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/starting_after=[^&]+&limit=1$/);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1).getByRole("link")).not.toHaveText(firstName);
    await page.getByRole("link", { name: "First page" }).click();
    await expect(rows.nth(1).getByRole("link")).toHaveText(firstName);
  });
});
