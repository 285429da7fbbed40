import { seriousViolations } from "../support/axe.ts";
import { expect, screenshot, signInByLink, test } from "../support/fixtures.ts";

interface Started {
  device_code: string;
  user_code: string;
  verification_uri_complete: string;
}

/** What `fleetctl login` does first: start a command-line sign-in. */
async function startSignIn(apiUrl: string, client: { client_name: string; client_host: string }) {
  const response = await fetch(`${apiUrl}/v1/auth/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(client),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Started;
}

/** The CLI's poll: status and body. */
async function poll(apiUrl: string, deviceCode: string) {
  const response = await fetch(`${apiUrl}/v1/auth/sessions/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ device_code: deviceCode }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

test.describe("Command-line sign-in (/device)", () => {
  // Each test signs in, builds a page and runs axe on a shared two-core machine: give it room.
  test.slow();
  test("the printed link shows who asks; approving hands the terminal a CLI credential", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    await signInByLink(page, tenant);
    const started = await startSignIn(apiUrl, { client_name: "fleetctl 1.0", client_host: "build-box-7" });
    const link = new URL(started.verification_uri_complete);
    await page.goto(`${link.pathname}${link.search}`);
    await expect(
      page.getByRole("heading", { level: 1, name: "Approve a command-line sign-in" }),
    ).toBeVisible();
    const request = page.getByRole("region", { name: "fleetctl 1.0 asks to sign in as you" });
    await expect(request).toContainText(started.user_code);
    await expect(request).toContainText("build-box-7");
    await expect(request).toContainText(tenant.email);
    await expect(page.getByRole("textbox", { name: "Code" })).toHaveValue(started.user_code);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, testInfo, "device-request");

    await request.getByRole("button", { name: "Approve sign-in" }).click();
    await expect(request.getByRole("status")).toContainText("Approved");
    // A success says so with a check, not the warning sign (issue 30 §6).
    const banner = request.locator(".ui-callout", { hasText: "Approved." });
    await expect(banner.locator('path[d="m3 8.5 3.25 3.25L13 5"]')).toHaveCount(1);
    await expect(banner.locator('path[d^="M8 1.75"]')).toHaveCount(0);
    await expect(request.getByRole("button", { name: "Approve sign-in" })).toHaveCount(0);
    await screenshot(page, testInfo, "device-approved");

    const polled = await poll(apiUrl, started.device_code);
    expect(polled.status).toBe(200);
    const me = await fetch(`${apiUrl}/v1/users/me`, {
      headers: { authorization: `Bearer ${polled.body.session_token}` },
    });
    expect(await me.json()).toMatchObject({ credential: "cli_credential", email: tenant.email });

    // The person's command-line sign-ins are listed on the same page; revoking one refuses it at once.
    await page.goto("/device");
    const signIns = page.getByRole("region", { name: "Your command-line sign-ins" });
    const row = signIns.getByRole("row", { name: /fleetctl 1\.0 on build-box-7/ });
    await expect(row).toContainText("Active");
    await row
      .getByRole("button", { name: "Revoke command-line credential fleetctl 1.0 on build-box-7" })
      .click();
    const dialog = page.getByRole("dialog", { name: "Revoke fleetctl 1.0 on build-box-7?" });
    await expect(dialog).toContainText("fail at once, on every instance");
    await dialog.getByRole("button", { name: "Revoke credential" }).click();
    await expect(row).toContainText("Revoked");
    await screenshot(page, testInfo, "device-credentials-revoked");
    const refused = await fetch(`${apiUrl}/v1/users/me`, {
      headers: { authorization: `Bearer ${polled.body.session_token}` },
    });
    expect(refused.status).toBe(401);
  });

  test("a typed code is looked up and can be denied; the terminal is told", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    await signInByLink(page, tenant);
    const started = await startSignIn(apiUrl, { client_name: "stranger", client_host: "unknown-host" });
    await page.goto("/device");
    await page.getByRole("textbox", { name: "Code" }).fill(started.user_code.replace("-", "").toLowerCase());
    await page.getByRole("button", { name: "Look up" }).click();
    // The code goes into the URL, so the page can be reloaded.
    await expect(page).toHaveURL(/\/device\?code=/);
    const request = page.getByRole("region", { name: "stranger asks to sign in as you" });
    await request.getByRole("button", { name: "Deny" }).click();
    await expect(request.getByRole("status")).toContainText("Denied");
    expect((await poll(apiUrl, started.device_code)).status).toBe(403);
  });

  test("a wrong code shows the problem with its request id", async ({ page, tenant }, testInfo) => {
    await signInByLink(page, tenant);
    await page.goto("/device?code=BBBB-BBBB");
    const alert = page.getByRole("alert", { name: "Sign-in code not found" });
    await expect(alert).toContainText("UZ-AUTH-016");
    await expect(alert.getByRole("button", { name: "Copy request ID" })).toBeVisible();
    await screenshot(page, testInfo, "device-not-found");
  });
});
