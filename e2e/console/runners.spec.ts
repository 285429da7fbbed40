import type { OutputOf } from "@fleet/contracts";
import type { getRunner } from "@fleet/contracts/runners/get-runner";
import type { Page } from "@playwright/test";
import { collectProblems, expect, openFromNavigation, screenshot, test } from "../support/fixtures.ts";
import { addTenantEntry, call, definition, installFleet, messageFleet } from "../support/fleet-api.ts";
import { operatorToken, type Tenant } from "../support/fleetctl.ts";
import { ManualRunner, noMechanisms } from "../support/runner-api.ts";

/** Signs in and opens Runners from the navigation. */
const openRunners = (page: Page, tenant: Tenant) => openFromNavigation(page, tenant, "Runners");

/** Pastes a token into the Operator access form, which posts it to the console's route handler. */
async function pasteOperatorToken(page: Page, token: string) {
  const access = page.getByRole("region", { name: "Operator access" });
  await access.getByLabel("Operator token").fill(token);
  await access.getByRole("button", { name: "Use operator token" }).click();
}

test.describe("Runners", () => {
  // The tenant fixture and a dozen steps took 1.9 min at load 20 (the default 90 s ran out in the fixture).
  test.describe.configure({ timeout: 240_000 });
  test("operator access, a degraded runner in the list, policy, leases, cordon, revoke and delete", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const problems = collectProblems(page);
    const admin = await operatorToken("runner:admin");
    const runner = new ManualRunner(apiUrl);
    await runner.enrol(admin);
    const verdict = await runner.heartbeat({ ...noMechanisms, landlock: true });
    expect(verdict.degraded_reason).toContain("seccomp");

    // No operator token yet: the page says what it needs and how to get one.
    await openRunners(page, tenant);
    const access = page.getByRole("region", { name: "Operator access" });
    await expect(access).toContainText('pnpm fleetctl operator --scopes "runner:admin" --json');
    await screenshot(page, testInfo, "runners-operator-access");

    // A tenant API key is no operator token: the API's refusal is shown, with its request id.
    await pasteOperatorToken(page, tenant.api_key);
    await expect(access.getByRole("alert")).toContainText("UZ-AUTH-003");
    await expect(access.getByRole("alert").getByRole("button", { name: "Copy request ID" })).toBeVisible();
    await screenshot(page, testInfo, "runners-operator-refused");

    // The operator token works; it went into an httpOnly cookie page scripts cannot read.
    await pasteOperatorToken(page, admin);
    await expect(page.getByRole("region", { name: "Operator token" })).toContainText("runner:admin");
    const cookie = (await page.context().cookies()).find((c) => c.name === "fleet_operator");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(await page.evaluate(() => document.cookie)).not.toContain("fleet_operator");

    // The list: admin state and liveness together, and the degraded badge with its reason.
    const row = page.getByRole("row", { name: new RegExp(runner.hostId) });
    await expect(row).toHaveAttribute("data-degraded", "true");
    await expect(row).toHaveAttribute("data-status", "active");
    await expect(row).toHaveAttribute("data-liveness", "online");
    await expect(row).toContainText("Degraded");
    await expect(row).toContainText("missing seccomp for landlock_full");
    await expect(row.getByRole("cell").nth(0)).toContainText("Active");
    await expect(row.getByRole("cell").nth(0)).toContainText("Online");
    await row.locator("time").first().hover();
    await expect(page.getByRole("tooltip").first()).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    await screenshot(page, testInfo, "runners-list");

    // Filter by degraded: the choice goes in the URL and the count sits on the link.
    const filters = page.getByRole("navigation", { name: "Filter runners by state" });
    await filters.getByRole("link", { name: /^Degraded \d+$/ }).click();
    await expect(page).toHaveURL(/\/runners\?degraded=true$/);
    await expect(filters.getByRole("link", { name: /^Degraded \d+$/ })).toHaveAttribute(
      "aria-current",
      "true",
    );
    await expect(page.getByRole("row", { name: new RegExp(runner.hostId) })).toBeVisible();
    await expect(page.locator("tbody tr:not([data-degraded])")).toHaveCount(0);
    await filters.getByRole("link", { name: /^Cordoned \d+$/ }).click();
    await expect(page).toHaveURL(/status=cordoned/);
    await expect(page.getByRole("row", { name: new RegExp(runner.hostId) })).toHaveCount(0);
    await filters.getByRole("link", { name: /^All runners \d+$/ }).click();
    await expect(page).toHaveURL(/\/runners$/);

    // The runner's page: assigned versus achievable, mechanism by mechanism.
    await page.getByRole("link", { name: runner.hostId }).click();
    await expect(page.getByRole("heading", { level: 1, name: runner.hostId })).toBeVisible();
    const mechanisms = page.getByRole("table", { name: /Assigned versus achievable/ });
    await expect(mechanisms.getByRole("row", { name: /seccomp/ })).toHaveAttribute("data-verdict", "Missing");
    await expect(mechanisms.getByRole("row", { name: /Landlock/ })).toHaveAttribute(
      "data-verdict",
      "Enforced",
    );
    await expect(page.getByRole("region", { name: "Sandbox", exact: true })).toContainText("missing seccomp");
    // Deleting waits for a revoke, and says so.
    const remove = page.getByRole("button", { name: `Delete runner ${runner.hostId}` });
    await expect(remove).toBeDisabled();
    await expect(remove).toHaveAccessibleDescription(/Only a revoked runner can be deleted/);
    await screenshot(page, testInfo, "runner-degraded");

    // Edit the policy: the service clamps the worker count into 1–64, and the page shows what it stored.
    await page.getByRole("button", { name: `Edit policy of runner ${runner.hostId}` }).click();
    const policy = page.getByRole("dialog", { name: `Policy of ${runner.hostId}` });
    await expect(policy.getByRole("radio", { name: "Landlock + seccomp" })).toBeChecked();
    await policy.getByLabel("Worker count").fill("100");
    await policy.getByLabel("Registry allow-list (optional)").fill("registry.npmjs.org\nghcr.io");
    await screenshot(page, testInfo, "runner-policy");
    await policy.getByRole("button", { name: "Save policy" }).click();
    await expect(policy).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: "Worker count stored as 64" })).toContainText(
      "you asked for 100",
    );
    await expect(page.getByRole("region", { name: "Sandbox", exact: true })).toContainText("ghcr.io");
    await expect(
      page.getByRole("region", { name: "Sandbox", exact: true }).getByRole("definition").last(),
    ).toHaveText("64");

    // The host reports seccomp too: no longer degraded, so it takes work. One lease fails, one runs.
    await runner.heartbeat({ ...noMechanisms, landlock: true, seccomp: true });
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Nightly build", runnerLabels: [runner.label] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "Build main.");
    const failed = await runner.lease();
    expect(failed.fleet_id).toBe(fleet.fleet_id);
    await runner.fail(failed, "tool_denied", "The shell tool was not granted to this fleet");
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "Build the release branch.");
    const running = await runner.lease();
    expect(running.fleet_id).toBe(fleet.fleet_id);

    await page.reload();
    await expect(page.getByRole("region", { name: "Sandbox", exact: true })).not.toContainText("Degraded");
    const lifetime = page.getByRole("region", { name: "Lifetime" });
    await expect(lifetime).toContainText("Running now: 1 lease for 1 fleet.");
    await expect(lifetime.locator('[data-counter="failed"] dd')).toHaveText("1");
    await expect(lifetime.locator('[data-counter="acquired"] dd')).toHaveText("2");
    const leases = page.getByRole("table", { name: /Leases of runner/ });
    await expect(leases.getByRole("row").nth(1)).toHaveAttribute("data-outcome", "running");
    const failedRow = leases.getByRole("row", { name: /Failed/ });
    await expect(failedRow).toContainText(
      "Failed with tool denied: The shell tool was not granted to this fleet.",
    );
    await screenshot(page, testInfo, "runner-leases");

    // The running lease expires in seconds, counted: renewed a moment ago, it never reads "just now".
    await leases
      .getByRole("row")
      .nth(1)
      .getByRole("link", { name: /^Review lease of Nightly build/ })
      .click();
    const runningReview = page.getByRole("dialog", { name: "Lease of Nightly build" });
    await expect(runningReview.locator("[data-expiry]")).toHaveText(
      /^(in )?\d+ (second|minute)s?( ago \(overdue\))?$/,
    );
    await runningReview.getByRole("button", { name: "Close", exact: true }).click();
    await expect(page).not.toHaveURL(/lease=/);

    // Review the failed lease: its id goes in the URL.
    await failedRow.getByRole("link", { name: /^Review lease of Nightly build/ }).click();
    await expect(page).toHaveURL(new RegExp(`lease=${failed.lease_id}`));
    const review = page.getByRole("dialog", { name: "Lease of Nightly build" });
    await expect(review).toContainText("Failed with tool denied");
    await expect(review.getByRole("button", { name: "Copy diagnostic" })).toBeVisible();
    await screenshot(page, testInfo, "lease-review");
    await review.getByRole("button", { name: "Close", exact: true }).click();
    await expect(page).not.toHaveURL(/lease=/);

    // History, filtered to a set of types kept in the URL.
    const history = page.getByRole("region", { name: "History" });
    await history.getByRole("checkbox", { name: "Policy assigned" }).check();
    await expect(page).toHaveURL(/types=runner_policy_assigned/);
    const entries = history.getByRole("list", { name: "Runner history, newest first" }).getByRole("listitem");
    await expect(entries).toHaveCount(2);
    await expect(entries.first()).toContainText("64 workers");
    await history.getByRole("checkbox", { name: "Lease released" }).check();
    await expect(page).toHaveURL(/types=lease_released(%2C|,)runner_policy_assigned/);
    await expect(entries.filter({ hasText: "Lease released" }).last()).toContainText("failed");
    await expect(entries.filter({ hasText: "Policy assigned" })).toHaveCount(2);
    // A lease names its fleet, with the fleet's id one copy-click away.
    await history.getByRole("checkbox", { name: "Lease acquired" }).check();
    const acquired = entries.filter({ hasText: "Lease acquired" }).first();
    await expect(acquired).toContainText("of fleet Nightly build");
    await expect(acquired.getByRole("button", { name: "Copy the id of fleet Nightly build" })).toBeVisible();
    await screenshot(page, testInfo, "runner-history");

    // Cordon: at once, and now the button says why it is unavailable.
    const cordon = page.getByRole("button", { name: `Cordon runner ${runner.hostId}` });
    await cordon.click();
    await expect(page.getByRole("status").filter({ hasText: `Cordoned ${runner.hostId}` })).toBeVisible();
    await expect(page.locator(".runner-header [data-status]").first()).toHaveAttribute(
      "data-status",
      "cordoned",
    );
    await expect(cordon).toBeDisabled();
    await expect(cordon).toHaveAccessibleDescription("The runner is already cordoned.");
    await cordon.hover();
    await expect(page.getByRole("tooltip", { name: "The runner is already cordoned." })).toBeVisible();
    await expect(page.getByRole("button", { name: `Reactivate runner ${runner.hostId}` })).toBeEnabled();

    // Revoke, typed out: the button waits for the host's name.
    await page.getByRole("button", { name: `Revoke runner ${runner.hostId}` }).click();
    const revoke = page.getByRole("dialog", { name: `Revoke runner ${runner.hostId}?` });
    await expect(revoke).toContainText("Revoking is final");
    const confirm = revoke.getByRole("button", { name: "Revoke runner" });
    await expect(confirm).toBeDisabled();
    await revoke.getByLabel(`Type ${runner.hostId} to confirm`).fill(runner.hostId);
    await expect(confirm).toBeEnabled();
    await screenshot(page, testInfo, "runner-revoke");
    await confirm.click();
    await expect(revoke).toBeHidden();
    await expect(page.locator(".runner-header [data-status]").first()).toHaveAttribute(
      "data-status",
      "revoked",
    );
    await expect(
      page.getByRole("button", { name: `Reactivate runner ${runner.hostId}` }),
    ).toHaveAccessibleDescription(/revoked/);

    // Delete, now that it is revoked: back to the list, without it.
    await expect(remove).toBeEnabled();
    await remove.click();
    const deleting = page.getByRole("dialog", { name: `Delete runner ${runner.hostId}?` });
    await expect(deleting.getByRole("button", { name: "Cancel" })).toBeFocused();
    await deleting.getByRole("button", { name: "Delete runner" }).click();
    await expect(page).toHaveURL(/\/runners$/);
    await expect(page.getByRole("heading", { level: 1, name: "Runners" })).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(runner.hostId) })).toHaveCount(0);

    // Forget the token: the page asks for one again.
    await page.getByRole("button", { name: "Forget operator token" }).click();
    await expect(page.getByRole("region", { name: "Operator access" })).toBeVisible();
    expect((await page.context().cookies()).some((c) => c.name === "fleet_operator")).toBe(false);
    expect(problems).toEqual([]);
  });

  test("drain waits for the running lease, shows drained once it ends, and reactivate makes it active again", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const problems = collectProblems(page);
    const operator = await operatorToken("runner:write");
    const runner = new ManualRunner(apiUrl);
    await runner.enrol(operator);
    await runner.heartbeat({ ...noMechanisms, landlock: true, seccomp: true });
    /** The runner's admin state as the API reports it to an operator. */
    const apiStatus = async () =>
      (
        await call<OutputOf<typeof getRunner>>(
          apiUrl,
          operator,
          "GET",
          `/v1/fleets/runners/${runner.runnerId}`,
        )
      ).status;

    // The runner holds a lease, so a drain has something to wait for.
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name: "Drain watch", runnerLabels: [runner.label] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry);
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "Keep the runner busy.");
    const lease = await runner.lease();

    await openRunners(page, tenant);
    await pasteOperatorToken(page, operator);
    await page.getByRole("link", { name: runner.hostId }).click();
    const heading = page.getByRole("heading", { level: 1, name: runner.hostId });
    await expect(heading).toBeVisible();
    // The host's name with its admin state and liveness beside it.
    const title = heading.locator("xpath=..");
    await expect(title).toContainText("Active");
    await expect(title).toContainText("Busy");
    const drain = page.getByRole("button", { name: `Drain runner ${runner.hostId}` });
    const reactivate = page.getByRole("button", { name: `Reactivate runner ${runner.hostId}` });
    await expect(reactivate).toBeDisabled();
    await expect(reactivate).toHaveAccessibleDescription("The runner is already active.");

    // Drain: at once, no confirmation; draining while its lease runs.
    await drain.click();
    await expect(
      page.getByRole("status").filter({ hasText: `Draining ${runner.hostId}: it takes no new work` }),
    ).toContainText("shows drained once its leases end");
    await expect(title).toContainText("Draining");
    await expect(drain).toBeDisabled();
    await expect(drain).toHaveAccessibleDescription("The runner is already draining.");
    await expect(reactivate).toBeEnabled();
    expect(await apiStatus()).toBe("draining");
    await screenshot(page, testInfo, "runner-draining");

    // The lease ends: drained, on the page (it polls) and in the API.
    await runner.fail(lease, "interrupted", "The host is being drained for maintenance");
    await runner.heartbeat({ ...noMechanisms, landlock: true, seccomp: true });
    await expect(title).toContainText("Drained", { timeout: 25_000 });
    await expect(drain).toHaveAccessibleDescription("The runner has already drained.");
    expect(await apiStatus()).toBe("drained");
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Runners" }).click();
    const row = page.getByRole("row", { name: new RegExp(runner.hostId) });
    await expect(row.getByRole("cell").nth(0)).toContainText("Drained");
    await screenshot(page, testInfo, "runners-drained");

    // Reactivate: active again, and drainable again.
    await row.getByRole("link", { name: runner.hostId }).click();
    await expect(heading).toBeVisible();
    await reactivate.click();
    await expect(page.getByRole("status").filter({ hasText: `Reactivated ${runner.hostId}` })).toContainText(
      "it takes work again",
    );
    await expect(title).toContainText("Active");
    await expect(title).not.toContainText("Drained");
    await expect(reactivate).toBeDisabled();
    await expect(drain).toBeEnabled();
    expect(await apiStatus()).toBe("active");
    await screenshot(page, testInfo, "runner-reactivated");
    expect(problems).toEqual([]);
  });

  test("a read-only operator token sees every change disabled with the scope it lacks", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const runner = new ManualRunner(apiUrl);
    await runner.enrol(await operatorToken("runner:write"));
    await openRunners(page, tenant);
    await pasteOperatorToken(page, await operatorToken("runner:read"));
    await expect(page.getByRole("row", { name: new RegExp(runner.hostId) })).toHaveAttribute(
      "data-liveness",
      "registered",
    );
    await page.getByRole("link", { name: runner.hostId }).click();
    await expect(page.getByRole("heading", { level: 1, name: runner.hostId })).toBeVisible();
    for (const [name, scope] of [
      [`Edit policy of runner ${runner.hostId}`, "runner:write"],
      [`Cordon runner ${runner.hostId}`, "runner:write"],
      [`Drain runner ${runner.hostId}`, "runner:write"],
      [`Revoke runner ${runner.hostId}`, "runner:admin"],
      [`Delete runner ${runner.hostId}`, "runner:admin"],
    ] as const) {
      const button = page.getByRole("button", { name });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(new RegExp(`needs the scope ${scope}`));
    }
    // Clicking an unavailable action does nothing.
    await page.getByRole("button", { name: `Revoke runner ${runner.hostId}` }).click({ force: true });
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Sandbox", exact: true })).toContainText(
      "no capability report yet",
    );
    await screenshot(page, testInfo, "runner-read-only");
  });
});
