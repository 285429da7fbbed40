import { expect, LANDING_URL, screenshot, signInByLink, test } from "../support/fixtures.ts";
import { loginLink } from "../support/fleetctl.ts";

test.describe("Sign-in", () => {
  test("signed-out visitors are sent to the sign-in page", async ({ page }, testInfo) => {
    await page.goto("/api-keys");
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in to the console" })).toBeVisible();
    await screenshot(page, testInfo, "sign-in");
  });

  test("a sign-in link works once; a used one shows the problem", async ({
    page,
    context,
    tenant,
    apiUrl,
  }, testInfo) => {
    const url = await signInByLink(page, tenant);
    const cookie = (await context.cookies()).find((c) => c.name === "fleet_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(await page.evaluate(() => document.cookie)).not.toContain("fleet_session");
    const me = () =>
      fetch(`${apiUrl}/v1/users/me`, { headers: { authorization: `Bearer ${cookie!.value}` } });
    expect((await me()).status).toBe(200);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    expect((await context.cookies()).find((c) => c.name === "fleet_session")).toBeUndefined();
    // Signing out ended the session on the API too: the token is refused, not merely forgotten.
    expect((await me()).status).toBe(401);

    await page.goto(url);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    const alert = page.getByRole("alert", { name: "Sign-in link not valid" });
    await expect(alert).toContainText("The sign-in link is unknown, used or expired.");
    await expect(alert).toContainText("UZ-AUTH-010");
    await expect(alert.getByRole("button", { name: "Copy request ID" })).toBeVisible();
    await screenshot(page, testInfo, "sign-in-link-refused");
  });

  test("pasting a tenant API key signs in", async ({ page, context, tenant }, testInfo) => {
    await page.goto("/sign-in");
    await page.getByLabel("API key", { exact: true }).fill(tenant.api_key);
    await page.getByRole("button", { name: "Sign in with API key" }).click();
    await expect(page).toHaveURL(LANDING_URL);
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    const identity = page.getByRole("region", { name: "Signed in as" });
    await expect(identity).toContainText(tenant.email);
    await expect(identity).toContainText("Signed in with API key");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: /API keys/ })
      .click();
    await expect(page.getByRole("row", { name: /bootstrap/ })).toBeVisible();
    expect((await context.cookies()).find((c) => c.name === "fleet_session")?.httpOnly).toBe(true);
    expect(await page.content()).not.toContain(tenant.api_key);
    await screenshot(page, testInfo, "signed-in-with-key");
  });

  test("a key that does not authenticate is refused with the problem", async ({ page }) => {
    await page.goto("/sign-in");
    await page.getByLabel("API key", { exact: true }).fill("agt_tnot-a-real-key");
    await page.getByRole("button", { name: "Sign in with API key" }).click();
    const alert = page.getByRole("alert", { name: "Invalid credential" });
    await expect(alert).toContainText("UZ-AUTH-002");
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test("each area is in the navigation, none of them still to come", async ({ page, tenant }, testInfo) => {
    await signInByLink(page, tenant);
    const nav = page.getByRole("navigation", { name: "Main" });
    // Every area has landed: no link carries "Soon" (each page has its own spec).
    for (const link of await nav.getByRole("link").all()) await expect(link).not.toContainText("Soon");
    await nav.getByRole("link", { name: /Connectors/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Connectors" })).toBeVisible();
    await expect(nav.getByRole("link", { name: /Connectors/ })).toHaveAttribute("aria-current", "page");
    await screenshot(page, testInfo, "navigation");
  });
});

test.describe("Sign-in links", () => {
  test("opening a link spends nothing, and a cross-site post cannot spend it", async ({
    page,
    request,
    tenant,
    baseURL,
  }) => {
    const url = await loginLink(tenant.email);
    const token = new URL(url).searchParams.get("token")!;
    await page.goto(url); // a mail scanner's visit
    await expect(page.getByRole("heading", { name: "Continue to the console" })).toBeVisible();
    const forged = await request.post(`${baseURL}/auth/link/confirm`, {
      form: { token },
      headers: { origin: "https://attacker.example", "sec-fetch-site": "cross-site" },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(LANDING_URL);
  });
});
