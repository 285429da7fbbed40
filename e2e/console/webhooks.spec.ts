import { randomUUID } from "node:crypto";
import { startWebhookReceiver } from "@fleet/testing/webhook-receiver";
import type { Page } from "@playwright/test";
import { seriousViolations } from "../support/axe.ts";
import {
  collectProblems,
  expect,
  looksAtSizes,
  openFromNavigation,
  signInByLink,
  signInToLanding,
  test,
} from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  TestRunner,
} from "../support/fleet-api.ts";
import { addMember, type Tenant } from "../support/fleetctl.ts";
import { StartCommand } from "../support/start-command.ts";

/**
 * A public IP literal: passes the API's address check with no DNS. Nothing here answers it as a receiver
 * would, so a delivery to it fails without a status (a connection error) and waits for its next retry.
 */
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
    // A long walk through every change; on a two-core machine it can share the cores with a stack of the
    // disable case's own: three times the default time.
    test.slow();
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

  test("an endpoint's page shows its health and delivery log: a test ping fails and is retried, a delivery is inspected, and a replay queues the workspace's events again", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    // A fleet's run is made and failed through a runner: the tenant fixture and the builds take minutes.
    test.setTimeout(300_000);
    const problems = collectProblems(page);
    const created = await call<{ id: string }>(
      apiUrl,
      tenant.api_key,
      "POST",
      `/v1/workspaces/${tenant.workspace_id}/webhook-endpoints`,
      { url: URL_A, event_types: ["event.failed"], description: "Failures to the pager" },
    );
    // One failed run: an event.failed delivery to the endpoint, and an event a replay can send again.
    const runner = new TestRunner(apiUrl);
    const name = `Release helper ${randomUUID().slice(0, 6)}`;
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({ name, description: "Answers questions about releases.", runnerLabels: [runner.label] }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry, name);
    await messageFleet(apiUrl, tenant, fleet.fleet_id, "Ship web v2.");
    const lease = await runner.lease();
    await runner.report(lease, { outcome: "fleet_error", failure_label: "deploy refused" });

    await openWebhooks(page, tenant);
    const row = page.getByRole("row", { name: /1\.1\.1\.1\/fleet-hooks/ });
    // Its health: the run's delivery fails, so the row says so in words once its first attempt is made.
    await expect(row).toContainText(/% of \d+ attempts?|no attempts in 24 h/);
    await row.getByRole("link", { name: URL_A }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${created.id}\\?workspace=${tenant.workspace_id}$`));
    await expect(page.getByRole("heading", { level: 1, name: "1.1.1.1/fleet-hooks" })).toBeVisible();
    const log = page.getByRole("table", { name: "Deliveries to 1.1.1.1/fleet-hooks, newest first" });
    await expect(log.getByRole("row", { name: /event\.failed/ })).toBeVisible();

    // Send test: the ping is pending at once, then shows its first attempt's error (no status came).
    await page.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByRole("status")).toContainText("Sent a test ping");
    const ping = log.getByRole("row", { name: /ping/ });
    await expect(ping).toHaveAttribute("data-status", "pending");
    await expect(ping).toContainText(/ after \d/, { timeout: 30_000 });
    // The endpoint's health follows (it polls with the log while a delivery is pending).
    await expect(page.getByRole("region", { name: "Endpoint" })).toContainText("Last failed");
    await looksAtSizes(page, "webhook-endpoint", true);
    expect(await seriousViolations(page)).toEqual([]);

    // Inspect: the request as sent and its attempts, newest first; the delivery is in the URL.
    await ping.getByRole("link", { name: /^Inspect ping delivery/ }).click();
    const dialog = page.getByRole("dialog", { name: "ping delivery" });
    await expect(page).toHaveURL(/[?&]delivery=[0-9a-f-]{36}/);
    await expect(dialog.getByRole("region", { name: "Request" })).toContainText(created.id);
    const attempts = dialog.getByRole("list", { name: "Attempts, newest first" });
    await expect(attempts.getByRole("listitem").first()).toContainText(/Attempt \d/);
    await expect(attempts.getByRole("listitem").last()).toContainText("Attempt 1");
    await looksAtSizes(page, "webhook-delivery");
    expect(await seriousViolations(page)).toEqual([]);

    // Retry: answered 202, the delivery is pending again.
    await dialog.getByRole("button", { name: "Retry now" }).click();
    await expect(dialog.locator("[data-delivery-id]")).toHaveAttribute("data-status", "pending");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status")).toContainText("Retrying the ping delivery: it is pending.");

    // The filters live in the URL: only pings.
    await page.getByRole("combobox", { name: "Type", exact: true }).selectOption("ping");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/[?&]type=ping/);
    await expect(log.getByRole("row", { name: /event\.failed/ })).toBeHidden();
    await expect(ping).toBeVisible();

    // Replay since an hour ago (the dialog's start): the failed run's event is queued again, pings are not.
    await page.getByRole("button", { name: "Replay since…" }).click();
    const replay = page.getByRole("dialog", { name: "Replay events to 1.1.1.1/fleet-hooks" });
    await expect(replay.getByLabel(/^Since/)).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await replay.getByRole("button", { name: "Replay", exact: true }).click();
    const replayed = page.getByRole("dialog", { name: "Replay to 1.1.1.1/fleet-hooks" });
    await expect(replayed).toContainText("Queued 1 delivery");
    await replayed.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("status")).toContainText("Replay queued 1 delivery.");
    expect(problems).toEqual([]);
  });

  test("a member who may only read webhooks sees the endpoint page with every change disabled and why", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const base = `/v1/workspaces/${tenant.workspace_id}/webhook-endpoints`;
    const created = await call<{ id: string }>(apiUrl, tenant.api_key, "POST", base, {
      url: URL_A,
      event_types: ["gate.opened"],
    });
    await call(apiUrl, tenant.api_key, "POST", `${base}/${created.id}/test`);
    const email = `webhook-reader-${randomUUID().slice(0, 8)}@example.test`;
    await addMember(tenant.tenant_id, email, "webhook:read");
    await signInByLink(page, { ...tenant, email });
    await page.goto(`/webhooks/${created.id}?workspace=${tenant.workspace_id}`);
    await expect(page.getByRole("heading", { level: 1, name: "1.1.1.1/fleet-hooks" })).toBeVisible();
    const ping = page.getByRole("row", { name: /ping/ });
    await expect(ping).toBeVisible();
    for (const control of [
      page.getByRole("button", { name: "Send test" }),
      page.getByRole("button", { name: "Replay since…" }),
      page.getByRole("button", { name: "Edit webhook endpoint 1.1.1.1/fleet-hooks" }),
      page.getByRole("button", { name: "More actions for webhook endpoint 1.1.1.1/fleet-hooks" }),
      ping.getByRole("button", { name: /^Retry ping delivery/ }),
    ]) {
      await expect(control).toHaveAttribute("aria-disabled", "true");
      await expect(control).toHaveAccessibleDescription(
        "Needs the scope webhook:write: ask a tenant administrator.",
      );
    }
    // Reading stays open: the delivery is inspected.
    await ping.getByRole("link", { name: /^Inspect ping delivery/ }).click();
    const dialog = page.getByRole("dialog", { name: "ping delivery" });
    await expect(dialog.getByRole("button", { name: "Retry now" })).toHaveAttribute("aria-disabled", "true");
    await dialog.getByRole("button", { name: "Close", exact: true }).click();

    // A delivery made elsewhere comes with the next poll (one is pending) and waits behind a banner, so
    // the rows under the cursor stay put.
    await call(apiUrl, tenant.api_key, "POST", `${base}/${created.id}/test`);
    const banner = page.getByRole("button", { name: "Show 1 new delivery" });
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("row", { name: /ping/ })).toHaveCount(1);
    await banner.click();
    await expect(page.getByRole("row", { name: /ping/ })).toHaveCount(2);
  });

  test("the approval policy's escalation URL is listed as the notice endpoint: its changes are the policy's, only Enable or Disable are here", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    await call(apiUrl, tenant.api_key, "PUT", `/v1/workspaces/${tenant.workspace_id}/approval-policy`, {
      rules: [],
      escalation_webhook_url: URL_A,
    });
    await openWebhooks(page, tenant);
    const row = page.getByRole("row", { name: /1\.1\.1\.1\/fleet-hooks/ });
    await expect(row.getByText("Approval policy", { exact: true })).toBeVisible();
    const edit = row.getByRole("button", { name: "Edit webhook endpoint 1.1.1.1/fleet-hooks" });
    await expect(edit).toHaveAttribute("aria-disabled", "true");
    await expect(edit).toHaveAccessibleDescription(/change or remove it with PUT …\/approval-policy/);
    await row.getByRole("button", { name: "More actions for webhook endpoint 1.1.1.1/fleet-hooks" }).click();
    await expect(page.getByRole("menuitem")).toHaveText(["Disable"]);
    await page.keyboard.press("Escape");
    await row.getByRole("link", { name: /1\.1\.1\.1\/fleet-hooks/ }).click();
    await expect(
      page.getByRole("definition").filter({ hasText: "The workspace's notice secret" }),
    ).toBeVisible();
  });

  test("a delivery link whose delivery the log's page leaves out opens it all the same: its request and attempts", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const problems = collectProblems(page);
    const base = `/v1/workspaces/${tenant.workspace_id}/webhook-endpoints`;
    const created = await call<{ id: string }>(apiUrl, tenant.api_key, "POST", base, {
      url: URL_A,
      event_types: ["event.failed"],
    });
    const sent = await call<{ id: string }>(apiUrl, tenant.api_key, "POST", `${base}/${created.id}/test`);
    await signInToLanding(page, tenant);
    // A link opened later, on a log filtered to event.failed: the ping is on no page shown, so the dialog
    // reads it on its own (an upper-case id is the same delivery).
    const endpointPage = `/webhooks/${created.id}?workspace=${tenant.workspace_id}&type=event.failed`;
    await page.goto(`${endpointPage}&delivery=${sent.id.toUpperCase()}`);
    const dialog = page.getByRole("dialog", { name: "ping delivery" });
    await expect(dialog.getByRole("region", { name: "Request" })).toContainText(created.id);
    await expect(dialog.locator("[data-delivery-id]")).toHaveAttribute("data-delivery-id", sent.id);
    // It polls while pending, as the log does: the first attempt (a connection error) lands in it.
    const attempts = dialog.getByRole("list", { name: "Attempts, newest first" });
    await expect(attempts.getByRole("listitem").last()).toContainText("Attempt 1", { timeout: 30_000 });
    await expect(page.getByRole("row", { name: /ping/ })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    await expect(page).not.toHaveURL(/[?&]delivery=/);

    // An id that names no delivery of this endpoint: the API's problem, not an empty dialog.
    await page.goto(`${endpointPage}&delivery=01a2000a-0000-7000-8000-000000000000`);
    const absent = page.getByRole("dialog", { name: "Delivery" });
    await expect(absent.getByRole("alert")).toContainText("Webhook delivery not found");
    await expect(absent.getByRole("alert")).toHaveAttribute("data-error-code", "UZ-WEBHOOK-010");
    expect(problems).toEqual([]);
  });

  test("an endpoint whose receiver answers 410 is disabled by the service: a notice on both pages, a count beside Webhooks, and Enable clears them", async ({
    page,
  }) => {
    // Only dev mode takes a local receiver's URL, and the suite's API is not in dev mode: this runs a stack
    // of its own, `pnpm start` as a developer runs it (the first start of a database takes minutes here).
    test.setTimeout(420_000);
    const suite = [process.env.E2E_API_URL, process.env.E2E_CONSOLE_URL].map((url) =>
      Number(new URL(url!).port),
    );
    const start = await StartCommand.launch(suite);
    const receiver = await startWebhookReceiver();
    try {
      await start.waitFor(/Stop with Ctrl-C\./, 300);
      const apiUrl = `http://localhost:${start.apiPort}`;
      const apiKey = start.printed.match(/\(shown once\):\n {2}(agt_t\S+)$/m)![1]!;
      const signIn = start.printed.match(/one-time link, valid 10 minutes\):\n {2}(\S+)$/m)![1]!;
      const workspaces = await call<{ items: { id: string }[] }>(
        apiUrl,
        apiKey,
        "GET",
        "/v1/tenants/me/workspaces",
      );
      const base = `/v1/workspaces/${workspaces.items[0]!.id}/webhook-endpoints`;
      const created = await call<{ id: string }>(apiUrl, apiKey, "POST", base, {
        url: `${receiver.url}/gone-hooks`,
        event_types: ["gate.opened"],
      });
      // The receiver says the endpoint is gone: the ping's delivery fails and the service disables it.
      receiver.otherwise = 410;
      await call(apiUrl, apiKey, "POST", `${base}/${created.id}/test`);
      await expect
        .poll(
          async () =>
            (await call<{ enabled: boolean }>(apiUrl, apiKey, "GET", `${base}/${created.id}`)).enabled,
        )
        .toBe(false);
      receiver.otherwise = 200;

      await page.goto(signIn);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible({
        timeout: 30_000,
      });
      // The navigation tells the owner wherever they are.
      const nav = page.getByRole("navigation", { name: "Main" });
      const webhooks = nav.getByRole("link", { name: /^Webhooks\W+1 endpoint disabled by the service$/ });
      await expect(webhooks).toBeVisible();
      await webhooks.click();
      const notice = page.getByRole("region", { name: "An endpoint was disabled by the service" });
      await expect(notice).toContainText("410 Gone: the endpoint said it is gone");
      await expect(notice).toContainText("choose Enable in the endpoint's More actions menu");
      await expect(page.getByRole("row", { name: /gone-hooks/ })).toContainText("Disabled");
      await notice.getByRole("link", { name: /gone-hooks/ }).click();

      await expect(page).toHaveURL(new RegExp(`/webhooks/${created.id}\\?workspace=`));
      const onPage = page.getByRole("region", { name: /^Disabled by the service/ });
      await expect(onPage).toContainText("Fix the receiver, then enable the endpoint");
      expect(await seriousViolations(page)).toEqual([]);
      await onPage.getByRole("button", { name: /^Enable webhook endpoint/ }).click();
      await expect(page.getByRole("status")).toContainText("Enabled ");
      await expect(onPage).toBeHidden();
      await expect(nav.getByRole("link", { name: "Webhooks", exact: true })).toBeVisible();
    } finally {
      await receiver.close();
      await start.stop();
    }
  });
});
