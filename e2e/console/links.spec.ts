import type { Page } from "@playwright/test";
import { expect, looksAtSizes, signInByLink, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  requesterToken,
  TestRunner,
} from "../support/fleet-api.ts";
import { loginLink, type Tenant } from "../support/fleetctl.ts";

/** Two shared cores under six agents: a page may take longer than the default 10 s to show. */
const slow = expect.configure({ timeout: 30_000 });

/**
 * The inbox's keys listen once its scripts run: its live stream says so (the server-drawn HTML is on screen
 * before, and a key pressed then does nothing). Then past the 800 ms settle that guards a double press.
 */
async function keysListen(page: Page) {
  await slow(page.locator(".live-status").first()).toHaveAttribute("data-state", "live");
  await page.waitForTimeout(900);
}

/** A well-formed UUIDv7 that names nothing. */
const NOBODY = "01a2000a-0000-7000-8000-00000000abcd";

/** The tenant pointed at a second workspace of its own. */
async function secondWorkspace(apiUrl: string, tenant: Tenant): Promise<Tenant> {
  const created = await call<{ workspace_id: string }>(apiUrl, tenant.api_key, "POST", "/v1/workspaces", {
    name: `Second ${Math.random().toString(36).slice(2, 8)}`,
  });
  return { ...tenant, workspace_id: created.workspace_id };
}

/** A fleet of the tenant's workspace with one message, and the message's event. */
async function fleetWithEvent(
  apiUrl: string,
  tenant: Tenant,
  name: string,
  runner: TestRunner,
  token?: string,
) {
  const entry = await addTenantEntry(apiUrl, tenant, definition({ name, runnerLabels: [runner.label] }));
  const fleet = await installFleet(apiUrl, tenant, entry);
  const sent = await messageFleet(apiUrl, tenant, fleet.fleet_id, "approve: deploy web", token);
  return { fleet, eventId: sent.event_id };
}

/**
 * A fleet leased by the test's own runner, its message sent by `requester` (another member: the owner,
 * who answers, did not cause the gate), so the runner may open gates for it.
 */
async function leasedFleet(apiUrl: string, tenant: Tenant, name: string, requester: string) {
  const runner = new TestRunner(apiUrl);
  const { fleet } = await fleetWithEvent(apiUrl, tenant, name, runner, requester);
  return { runner, fleet, lease: await runner.lease() };
}

function gateStatus(apiUrl: string, tenant: Tenant, gateId: string) {
  return call<{ status: string }>(
    apiUrl,
    tenant.api_key,
    "GET",
    `/v1/workspaces/${tenant.workspace_id}/approvals/${gateId}`,
  ).then((gate) => gate.status);
}

/** The address once the page has written its workspace in: every parameter asked for is still there. */
async function expectKept(page: Page, workspaceId: string, params: Record<string, string>) {
  await expect
    .poll(() => new URL(page.url()).searchParams.get("workspace"), { timeout: 30_000 })
    .toBe(workspaceId);
  const search = new URL(page.url()).searchParams;
  for (const [name, value] of Object.entries(params)) expect(search.get(name), name).toBe(value);
}

test.describe("Links keep their target", () => {
  // Runners, fleetctl, the API, the console and a browser on two shared cores.
  test.describe.configure({ timeout: 240_000 });

  test("every page that adds the workspace keeps every other parameter of the address", async ({
    page,
    tenant,
  }) => {
    await signInByLink(page, tenant);
    const ws = tenant.workspace_id;
    const pages: [string, Record<string, string>][] = [
      ["/events", { status: "fleet_error", actor: "user:someone", since: "7d", type: "message" }],
      ["/audit", { actor: "user:someone", action: "fleet.*", starting_after: NOBODY, keep: "1" }],
      ["/fleets", { status: "paused", name: "web", starting_after: NOBODY, limit: "10" }],
      ["/library", { starting_after: NOBODY, limit: "5" }],
      ["/approvals", { status: "approved", kind: "change", fleet: NOBODY, cursor: "abc" }],
      ["/secrets", { keep: "this" }],
      ["/connectors", { keep: "this" }],
      ["/overview", { keep: "this" }],
    ];
    for (const [path, params] of pages) {
      await page.goto(`${path}?${new URLSearchParams(params)}`);
      await expectKept(page, ws, params);
    }
  });

  test("a fleet or run id alone finds its workspace, keeping the event the link opens", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const second = await secondWorkspace(apiUrl, tenant);
    const { fleet, eventId } = await fleetWithEvent(apiUrl, second, "Far away", new TestRunner(apiUrl));
    await signInByLink(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?tab=events&event=${eventId}`);
    await expectKept(page, second.workspace_id, { tab: "events", event: eventId });
    await slow(page.getByRole("heading", { level: 1, name: "Far away" })).toBeVisible();
    await slow(page.getByRole("dialog")).toBeVisible();
    await looksAtSizes(page, "fleet-id-alone");

    // A fleet the API cannot place for this person says so.
    await page.goto(`/fleets/${NOBODY}`);
    await slow(page.getByText("Fleet not found")).toBeVisible();
    await looksAtSizes(page, "fleet-not-found");

    // A run's id alone (upper case, as a person may paste it) becomes the run's page, parameters kept.
    await page.goto(`/runs/${eventId.toUpperCase()}?from=chat`);
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: 30_000 })
      .toBe(`/fleets/${fleet.fleet_id}/runs/${eventId}`);
    await expectKept(page, second.workspace_id, { from: "chat" });
    await page.goto(`/runs/${NOBODY}`);
    await slow(page.getByText("Run not found")).toBeVisible();
  });

  test("a gate id alone opens that gate in its own workspace, not the one shown last", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const second = await secondWorkspace(apiUrl, tenant);
    const { runner, lease } = await leasedFleet(
      apiUrl,
      second,
      "Elsewhere",
      await requesterToken(apiUrl, tenant),
    );
    const gate = await runner.openGate(lease, { action_name: "far-gate", blast_radius: "staging" });
    await signInByLink(page, tenant);
    // The browser has shown the first workspace last: the link must still reach the gate's.
    await page.goto(`/approvals?workspace=${tenant.workspace_id}`);
    await slow(page.getByRole("heading", { name: "Approval gates" })).toBeVisible();
    await page.goto(`/approvals?kind=deploy&gate=${gate.gate_id.toUpperCase()}`);
    await expectKept(page, second.workspace_id, { kind: "deploy", gate: gate.gate_id.toUpperCase() });
    await slow(page.getByRole("region", { name: "deploy · far-gate" })).toBeVisible();
    await slow(page.locator('tr[data-current="true"]')).toHaveAttribute("data-gate-id", gate.gate_id);
  });

  test("the inbox says when it cannot open the gate asked for, and a and d answer no other", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const second = await secondWorkspace(apiUrl, tenant);
    const requester = await requesterToken(apiUrl, tenant);
    const here = await leasedFleet(apiUrl, tenant, "Here", requester);
    const waiting = await here.runner.openGate(here.lease, {
      action_name: "oldest",
      blast_radius: "staging",
    });
    const answered = await here.runner.openGate(here.lease, {
      action_name: "answered",
      blast_radius: "staging",
    });
    await call(
      apiUrl,
      tenant.api_key,
      "POST",
      `/v1/workspaces/${tenant.workspace_id}/approvals/${answered.gate_id}/deny`,
      {},
    );
    const there = await leasedFleet(apiUrl, second, "There", requester);
    const far = await there.runner.openGate(there.lease, { action_name: "far", blast_radius: "staging" });
    await signInByLink(page, tenant);
    const inbox = `/approvals?workspace=${tenant.workspace_id}`;
    const pane = page.locator(".inbox__pane");

    // Gone (or never was): said, and nothing opened in its place.
    await page.goto(`${inbox}&gate=${NOBODY}`);
    await slow(pane.getByText("Gate not found")).toBeVisible();
    await slow(page.locator('tr[data-current="true"]')).toHaveCount(0);
    await keysListen(page);
    await page.keyboard.press("a");
    await page.keyboard.press("d");
    await page.waitForTimeout(500);
    expect(await gateStatus(apiUrl, tenant, waiting.gate_id)).toBe("pending");
    await looksAtSizes(page, "gate-not-found");

    // In another workspace: said, with the way there; the keys answer neither.
    await page.goto(`${inbox}&gate=${far.gate_id}`);
    await slow(pane.getByText("This gate is in another workspace")).toBeVisible();
    await keysListen(page);
    await page.keyboard.press("a");
    await page.waitForTimeout(500);
    expect(await gateStatus(apiUrl, tenant, waiting.gate_id)).toBe("pending");
    expect(await gateStatus(apiUrl, second, far.gate_id)).toBe("pending");
    await looksAtSizes(page, "gate-elsewhere");
    await pane.getByRole("link", { name: "Open it in its workspace" }).click();
    await expectKept(page, second.workspace_id, { gate: far.gate_id });
    await slow(page.getByRole("region", { name: "deploy · far" })).toBeVisible();

    // No longer pending: its answer is shown, and a and d do nothing.
    await page.goto(`${inbox}&gate=${answered.gate_id}`);
    await slow(pane.getByRole("status").filter({ hasText: "No longer waiting" })).toContainText(
      "Already denied by",
    );
    await keysListen(page);
    await page.keyboard.press("a");
    await page.waitForTimeout(500);
    expect(await gateStatus(apiUrl, tenant, waiting.gate_id)).toBe("pending");
    expect(await gateStatus(apiUrl, tenant, answered.gate_id)).toBe("denied");
    await looksAtSizes(page, "gate-answered");
  });

  test("a approves a production gate, or one the policy marks high, only once confirmed; a low one goes with one key", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    // The policy marks a ledger gate high though its words do not say so, and a "prod sandbox" one low.
    await call(apiUrl, tenant.api_key, "PUT", `/v1/workspaces/${tenant.workspace_id}/approval-policy`, {
      rules: [
        { name: "Ledger", match: { blast_radius: ["billing ledger"] }, high_blast: true },
        { name: "Sandbox", match: { blast_radius: ["prod sandbox"] }, high_blast: false },
      ],
      escalation_webhook_url: null,
    });
    const { runner, lease } = await leasedFleet(
      apiUrl,
      tenant,
      "Risky",
      await requesterToken(apiUrl, tenant),
    );
    const prod = await runner.openGate(lease, { action_name: "ship-prod" }); // "production web, all customers"
    const low = await runner.openGate(lease, { action_name: "ship-staging", blast_radius: "staging web" });
    const ledger = await runner.openGate(lease, { action_name: "refund", blast_radius: "billing ledger" });
    const sandbox = await runner.openGate(lease, { action_name: "reset", blast_radius: "prod sandbox" });
    await signInByLink(page, tenant);
    await page.goto(`/approvals?workspace=${tenant.workspace_id}&gate=${prod.gate_id}`);
    await slow(page.getByRole("region", { name: "deploy · ship-prod" })).toBeVisible();
    await keysListen(page);

    await page.keyboard.press("a");
    const confirm = page.getByRole("dialog", { name: "Approve this gate?" });
    await slow(confirm).toContainText("production web, all customers");
    await looksAtSizes(page, "confirm-production");
    expect(await gateStatus(apiUrl, tenant, prod.gate_id)).toBe("pending");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await slow(confirm).toBeHidden();
    // Keys wait for every dialog to be closed (not only hidden), and the page to have settled again.
    await slow(page.locator("dialog[open]")).toHaveCount(0);
    await keysListen(page);
    expect(await gateStatus(apiUrl, tenant, prod.gate_id)).toBe("pending");

    await page.keyboard.press("a");
    await confirm.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => gateStatus(apiUrl, tenant, prod.gate_id)).toBe("approved");

    await page.goto(`/approvals?workspace=${tenant.workspace_id}&gate=${low.gate_id}`);
    await slow(page.getByRole("region", { name: "deploy · ship-staging" })).toBeVisible();
    await keysListen(page);
    await page.keyboard.press("a");
    await expect.poll(() => gateStatus(apiUrl, tenant, low.gate_id)).toBe("approved");
    await slow(confirm).toHaveCount(0);

    // The policy's word wins over the blast radius's: the ledger asks, the sandbox does not.
    await page.goto(`/approvals?workspace=${tenant.workspace_id}&gate=${ledger.gate_id}`);
    await slow(page.getByRole("region", { name: "deploy · refund" })).toBeVisible();
    await keysListen(page);
    await page.keyboard.press("a");
    await slow(confirm).toContainText("billing ledger");
    expect(await gateStatus(apiUrl, tenant, ledger.gate_id)).toBe("pending");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await slow(confirm).toBeHidden();

    await page.goto(`/approvals?workspace=${tenant.workspace_id}&gate=${sandbox.gate_id}`);
    await slow(page.getByRole("region", { name: "deploy · reset" })).toBeVisible();
    await keysListen(page);
    await page.keyboard.press("a");
    await expect.poll(() => gateStatus(apiUrl, tenant, sandbox.gate_id)).toBe("approved");
    await slow(confirm).toHaveCount(0);
    expect(await gateStatus(apiUrl, tenant, ledger.gate_id)).toBe("pending");
  });

  test("a signed-out person's link reaches its page after the sign-in, by link or by key, and only a console page", async ({
    page,
    context,
    tenant,
    baseURL,
  }) => {
    /** Where the page is once it has loaded: its path and every parameter. */
    const place = () => {
      const url = new URL(page.url());
      return `${url.pathname}?${[...url.searchParams].map(([k, v]) => `${k}=${v}`).join("&")}`;
    };
    const gateLink = `/approvals?workspace=${tenant.workspace_id}&gate=${NOBODY}&kind=deploy`;
    await page.goto(gateLink);
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto(await loginLink(tenant.email));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(place, { timeout: 30_000 }).toBe(gateLink);
    await slow(page.locator(".inbox__pane").getByText("Gate not found")).toBeVisible();

    // By key, to a run's page.
    await context.clearCookies();
    const runLink = `/fleets/${NOBODY}/runs/${NOBODY}?workspace=${tenant.workspace_id}`;
    await page.goto(runLink);
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.getByLabel("API key", { exact: true }).fill(tenant.api_key);
    await page.getByRole("button", { name: "Sign in with API key" }).click();
    await expect.poll(place, { timeout: 30_000 }).toBe(runLink);

    // An address planted in the cookie that is not a console page is never followed.
    await context.clearCookies();
    await context.addCookies([{ name: "fleet_return_to", value: "//evil.example/approvals", url: baseURL! }]);
    await signInByLink(page, tenant);
  });
});
