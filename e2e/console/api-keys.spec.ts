import { expect, screenshot, signInByLink, test } from "../support/fixtures.ts";

test.describe("API keys", () => {
  test("a minted key is shown once, and once revoked it fails at once", async ({
    page,
    context,
    tenant,
    apiUrl,
    request,
  }, testInfo) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signInByLink(page, tenant);
    await page.goto("/api-keys");
    await expect(page.getByRole("region", { name: "Signed in as" })).toContainText(tenant.email);
    await expect(page.getByRole("region", { name: "Signed in as" })).toContainText(tenant.name);
    await expect(page.getByRole("row", { name: /bootstrap/ })).toBeVisible();
    await screenshot(page, testInfo, "keys-list");

    await page.getByRole("button", { name: "Create API key" }).click();
    const form = page.getByRole("dialog", { name: "Create an API key" });
    await form.getByRole("textbox", { name: "Name" }).fill("deploy-bot");
    await form.getByLabel("Description").fill("Deploys from CI");
    // Least privilege: the Viewer preset is ticked, never every scope; an optional expiry.
    await expect(form.getByRole("radio", { name: "Viewer" })).toBeChecked();
    await expect(form.getByRole("checkbox", { name: "billing:read" })).not.toBeChecked();
    await form.getByLabel("Expires").selectOption({ label: "In 30 days" });
    await screenshot(page, testInfo, "mint-form");
    await form.getByRole("button", { name: "Create key" }).click();

    const reveal = page.getByRole("dialog", { name: "Copy your new API key" });
    await expect(reveal).toBeVisible();
    await expect(reveal).toContainText("shown only once");
    const key = await reveal.getByLabel("API key deploy-bot", { exact: true }).inputValue();
    expect(key).toMatch(/^agt_t/);

    // Neither Esc nor a click outside may lose the only copy.
    await page.keyboard.press("Escape");
    await expect(reveal).toBeVisible();
    await page.mouse.click(8, 8);
    await expect(reveal).toBeVisible();

    await reveal.getByRole("button", { name: "Copy API key deploy-bot" }).click();
    await expect(reveal.getByRole("status")).toHaveText("Copied to the clipboard.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await screenshot(page, testInfo, "mint-reveal");

    await reveal.getByRole("button", { name: "Done" }).click();
    await expect(reveal).toBeHidden();
    const row = page.getByRole("row", { name: /deploy-bot/ });
    await expect(row).toContainText("Active");
    await expect(row).toContainText("never");
    await expect(row).toContainText(key.slice(0, 13));
    await expect(row).toContainText("fleet:read");
    await expect(row).not.toContainText("billing:read");

    // The key works until it is revoked.
    const before = await request.get(`${apiUrl}/v1/users/me`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(before.status()).toBe(200);

    await page.reload();
    await expect(page.getByRole("row", { name: /deploy-bot/ })).toContainText("Active");
    expect(await page.content()).not.toContain(key);

    // Relative times carry the absolute time, in UTC and local time, on hover.
    await page
      .getByRole("row", { name: /deploy-bot/ })
      .locator("time")
      .first()
      .hover();
    await expect(page.getByRole("tooltip")).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    await expect(page.getByRole("tooltip")).toContainText("(local)");
    await screenshot(page, testInfo, "keys-list-time-tooltip");

    await page.getByRole("button", { name: "Revoke API key deploy-bot" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke API key deploy-bot?" });
    await expect(confirm).toContainText("Requests with this key fail at once");
    await screenshot(page, testInfo, "revoke-confirm");
    await confirm.getByRole("button", { name: "Revoke key" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole("row", { name: /deploy-bot/ })).toContainText("Revoked");
    await screenshot(page, testInfo, "keys-list-revoked");

    const after = await request.get(`${apiUrl}/v1/users/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(after.status()).toBe(401);
    expect((await after.json()).error_code).toBe("UZ-APIKEY-004");

    await page.getByRole("button", { name: "Delete API key deploy-bot" }).click();
    const remove = page.getByRole("dialog", { name: "Delete API key deploy-bot?" });
    await screenshot(page, testInfo, "delete-confirm");
    await remove.getByRole("button", { name: "Delete key" }).click();
    await expect(remove).toBeHidden();
    await expect(page.getByRole("row", { name: /deploy-bot/ })).toHaveCount(0);
  });

  test("when the clipboard refuses, the key is selected for a manual copy", async ({
    page,
    tenant,
  }, testInfo) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, "clipboard", {
        value: { writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError")) },
      });
    });
    await signInByLink(page, tenant);
    await page.goto("/api-keys");
    // A press that lands before the page has hydrated opens nothing: press until the dialog is there.
    await expect(async () => {
      if (!(await page.getByRole("dialog").isVisible())) {
        await page.getByRole("button", { name: "Create API key" }).click({ timeout: 2_000 });
      }
      await expect(page.getByRole("dialog")).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await page.getByRole("dialog").getByRole("textbox", { name: "Name" }).fill("ci-runner");
    await page.getByRole("button", { name: "Create key" }).click();
    const reveal = page.getByRole("dialog", { name: "Copy your new API key" });
    await reveal.getByRole("button", { name: "Copy API key ci-runner" }).click();
    await expect(reveal.getByRole("status")).toContainText("did not allow copying");
    await expect(reveal.getByLabel("API key ci-runner", { exact: true })).toBeFocused();
    await screenshot(page, testInfo, "mint-reveal-copy-failed");
  });

  test("the list pages by cursor and sorts, both kept in the URL", async ({
    page,
    tenant,
    apiUrl,
    request,
  }) => {
    for (const name of ["alpha", "bravo", "charlie"]) {
      const minted = await request.post(`${apiUrl}/v1/api-keys`, {
        headers: { authorization: `Bearer ${tenant.api_key}` },
        data: { key_name: name },
      });
      expect(minted.status()).toBe(201);
    }
    await signInByLink(page, tenant);
    await page.goto("/api-keys?sort=key_name&limit=2");
    const rows = page.getByRole("table").getByRole("row");
    await expect(rows).toHaveCount(3); // header + 2
    await expect(rows.nth(1)).toContainText("alpha");
    await expect(rows.nth(2)).toContainText("bootstrap");
    await expect(page.getByText("4 keys in this tenant")).toBeVisible();

    await page.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/starting_after=/);
    await expect(rows.nth(1)).toContainText("bravo");
    await expect(rows.nth(2)).toContainText("charlie");
    await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);

    await page.getByRole("link", { name: /^Name/ }).click();
    await expect(page).toHaveURL(/sort=-key_name/);
    await expect(page).not.toHaveURL(/starting_after=/);
    await expect(page.getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "descending");
    await expect(rows.nth(1)).toContainText("charlie");
  });

  test("a list that fails shows the problem, never an empty list", async ({ page, tenant }, testInfo) => {
    await signInByLink(page, tenant);
    await page.goto("/api-keys?starting_after=not-a-cursor");
    const alert = page.getByRole("alert", { name: "Invalid request" });
    await expect(alert).toContainText("starting_after");
    await expect(alert.getByRole("button", { name: "Copy request ID" })).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
    await expect(page.getByText("No API keys yet")).toHaveCount(0);
    await screenshot(page, testInfo, "keys-list-error");
  });
});
