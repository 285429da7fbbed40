import { mkdirSync } from "node:fs";
import type { Lease } from "@fleet/contracts";
import type { Page, Route, TestInfo } from "@playwright/test";
import {
  collectProblems,
  expect,
  openFromNavigation,
  screenshot,
  signInByLink,
  test,
} from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  installFleet,
  messageFleet,
  type RunnerGate,
  requesterToken,
  TestRunner,
} from "../support/fleet-api.ts";
import { addMember, type Tenant } from "../support/fleetctl.ts";

/** Where the screenshots looked at during development go, besides the test's own artifacts. */
const SHOTS = "/tmp/shots";

/** A full-window screenshot into /tmp/shots and the test's artifacts. */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, animations: "disabled" });
  await screenshot(page, testInfo, name);
}

/** A fleet of the test's own runner, with one message leased: the runner may open gates for it. */
async function leasedFleet(apiUrl: string, tenant: Tenant, name: string, message = "approve: deploy web") {
  const runner = new TestRunner(apiUrl);
  const entry = await addTenantEntry(apiUrl, tenant, definition({ name, runnerLabels: [runner.label] }));
  const fleet = await installFleet(apiUrl, tenant, entry);
  // Asked by another member: the owner, who answers, did not cause the gate.
  const sent = await messageFleet(
    apiUrl,
    tenant,
    fleet.fleet_id,
    message,
    await requesterToken(apiUrl, tenant),
  );
  const lease = await runner.lease();
  return { runner, fleet, lease, eventId: sent.event_id };
}

/** Answers a gate through the API with the tenant's key, as another approver would. */
function answerByApi(apiUrl: string, tenant: Tenant, gateId: string, decision: "approve" | "deny") {
  return call(
    apiUrl,
    tenant.api_key,
    "POST",
    `/v1/workspaces/${tenant.workspace_id}/approvals/${gateId}/${decision}`,
    {},
  );
}

function readGate(apiUrl: string, tenant: Tenant, gateId: string) {
  return call<{ status: string }>(
    apiUrl,
    tenant.api_key,
    "GET",
    `/v1/workspaces/${tenant.workspace_id}/approvals/${gateId}`,
  );
}

const APPROVAL_READS = /\/trpc\/[^?]*approvals\./;

/**
 * Watches the console's reads of gates from the page's first load. `hold()` then holds the next ones (its
 * polls, the refetches its live stream asks for) until released, so the page keeps showing a gate as
 * pending while someone else answers it through the API: the next click is a lost race, every time. It
 * returns once the reads already on their way have been answered, so none of them reaches the API after
 * that answer and shows the page the gate answered (under a loaded CI machine one did, and the button the
 * test was about to click went away).
 */
async function watchApprovalReads(page: Page): Promise<{ hold: () => Promise<() => Promise<void>> }> {
  let inFlight = 0;
  let holding = false;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const handler = async (route: Route) => {
    if (route.request().method() !== "GET") return route.continue().catch(() => {});
    if (holding) {
      await released;
      return route.continue().catch(() => {});
    }
    inFlight++;
    try {
      await route.continue();
      await (await route.request().response())?.finished();
    } catch {
      // The page went away or the request failed: either way it is no longer on its way.
    } finally {
      inFlight--;
    }
  };
  await page.route(APPROVAL_READS, handler);
  return {
    hold: async () => {
      holding = true;
      await expect.poll(() => inFlight).toBe(0);
      return async () => {
        release();
        await page.unroute(APPROVAL_READS, handler);
      };
    },
  };
}

/**
 * Opens gates named step-1, step-2, … one after the other (so oldest first is that order), of a low blast
 * radius: the a key answers them at once (a production one asks first, links.spec.ts).
 */
async function openSteps(runner: TestRunner, lease: Lease, count: number): Promise<RunnerGate[]> {
  const gates: RunnerGate[] = [];
  for (let step = 1; step <= count; step++) {
    gates.push(
      await runner.openGate(lease, {
        action_name: `step-${step}`,
        gate_kind: "change",
        blast_radius: "staging web",
      }),
    );
  }
  return gates;
}

test.describe("Approvals", () => {
  // The loop runs a runner, the API, the console and a browser on two shared cores.
  test.describe.configure({ timeout: 120_000 });

  test("a gate a runner opens is approved with changes in the inbox, and the runner's wait and the fleet event hold the answer", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const problems = collectProblems(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    const { runner, fleet, lease, eventId } = await leasedFleet(apiUrl, tenant, "Release bot");
    const gate = await runner.openGate(lease, { timeout_ms: 30 * 60_000 });

    await openFromNavigation(page, tenant, "Approvals", "/approvals");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: /Approvals\W+1 pending/ })).toBeVisible();

    const row = page.getByRole("row", { name: /deploy · release/ });
    await expect(row).toHaveAttribute("data-current", "true");
    await expect(row).toContainText("Release bot");
    await expect(row).toContainText("production web, all customers");
    await expect(row.getByText(/^(29|30)m \d\ds$/)).toBeVisible();

    const pane = page.getByRole("region", { name: "deploy · release" });
    await expect(pane).toContainText("deploy web@v2 to production");
    await expect(pane).toContainText("The release notes ask for an approval before production.");
    await expect(pane.getByRole("region", { name: "Evidence" })).toContainText('"passed": 12');
    await expect(page.getByText(/j\s+k move · a approve · d deny/)).toBeVisible();
    await shot(page, testInfo, "approvals-inbox");

    // The runner waits while the person decides; the decision wakes it.
    const waited = runner.waitGate(lease, gate.gate_id, 25_000);
    await pane.getByLabel(/^Reason/).fill("Canary first.");
    await pane.getByRole("button", { name: "Approve with changes…" }).click();
    const changed = pane.getByLabel("Action to approve");
    await expect(changed).toHaveValue("deploy web@v2 to production");
    await expect(pane.getByRole("button", { name: "Approve changed action" })).toHaveAttribute(
      "aria-disabled",
      "true",
    );
    await changed.fill("deploy web@v2 to canary");
    await shot(page, testInfo, "approvals-detail");
    await pane.getByRole("button", { name: "Approve changed action" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Approved deploy · release on Release bot." }),
    ).toBeVisible();

    const answer = await waited;
    expect(answer).toMatchObject({
      status: "approved",
      outcome: "approved",
      approved_action: "deploy web@v2 to canary",
      amended_action: "deploy web@v2 to canary",
      reason: "Canary first.",
      resolved_by: `user:${tenant.user_id}`,
    });
    // The runner does what was approved and reports it, as the echo executor does.
    await runner.report(lease, {
      outcome: "processed",
      response_text: `Approved by ${answer.resolved_by}: ${answer.approved_action}`,
    });
    const event = await call<{ status: string; response_text?: string }>(
      apiUrl,
      tenant.api_key,
      "GET",
      `/v1/workspaces/${tenant.workspace_id}/fleets/${fleet.fleet_id}/events/${eventId}`,
    );
    expect(event.response_text).toBe(`Approved by user:${tenant.user_id}: deploy web@v2 to canary`);

    // The pending inbox is empty, the count gone; the Approved tab holds the answer.
    await expect(page.getByText("Nothing waits for an answer in default")).toBeVisible();
    await expect(nav.getByRole("link", { name: /Approvals/ })).not.toContainText("pending");
    await page.getByRole("tab", { name: "Approved" }).click();
    await expect(page).toHaveURL(/status=approved/);
    const approved = page.getByRole("region", { name: "deploy · release" });
    await expect(approved).toContainText("deploy web@v2 to canary");
    await expect(approved.getByText("you", { exact: true })).toBeVisible();

    // The audit log has the decision, made by "you".
    await nav.getByRole("link", { name: "Audit log" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    const entry = page.getByRole("row", { name: /approval\.approve/ });
    // Who and what by name, each id one copy-click away: the person is "(you)", the gate by its short id.
    await expect(entry.locator(".audit-target")).toHaveAttribute("data-id", gate.gate_id);
    await expect(entry.locator(".audit-target")).toContainText(`approval ${gate.gate_id.slice(0, 8)}…`);
    await expect(entry.locator(".audit-actor")).toHaveText(`${tenant.email} (you)`);
    await shot(page, testInfo, "audit-log");
    // Filtered by an action prefix that matches nothing, in the URL.
    await page.getByLabel("Action", { exact: true }).fill("secret.*");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/action=secret\.\*/);
    await expect(page.getByText("No entries match the filters")).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("an answer that loses the race says whose answer stands, not an error", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const { runner, lease } = await leasedFleet(apiUrl, tenant, "Racer");
    const gate = await runner.openGate(lease);
    const reads = await watchApprovalReads(page);
    await openFromNavigation(page, tenant, "Approvals", "/approvals");
    const pane = page.getByRole("region", { name: "deploy · release" });
    await expect(pane.getByRole("button", { name: "Approve", exact: true })).toBeVisible();

    const release = await reads.hold();
    await answerByApi(apiUrl, tenant, gate.gate_id, "approve");
    await pane.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(pane.getByRole("status").filter({ hasText: "Already" })).toContainText(
      /^Already approved by API key bootstrap at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\. The first answer stands/,
    );
    await expect(page.getByRole("main").getByRole("alert")).toHaveCount(0);
    await screenshot(page, testInfo, "approvals-lost-race");
    await release();
  });

  test("j and k move, a approves and d denies the open gate, never while typing", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const { runner, lease } = await leasedFleet(apiUrl, tenant, "Keys");
    const [first, second, third] = await openSteps(runner, lease, 3);
    await openFromNavigation(page, tenant, "Approvals", "/approvals");
    const current = page.locator('tr[data-current="true"]');
    await expect(current).toHaveAttribute("data-gate-id", first!.gate_id);

    await page.keyboard.press("j");
    await expect(current).toHaveAttribute("data-gate-id", second!.gate_id);
    await expect(page).toHaveURL(new RegExp(`gate=${second!.gate_id}`));
    await page.keyboard.press("j");
    await expect(current).toHaveAttribute("data-gate-id", third!.gate_id);
    await page.keyboard.press("k");
    await page.keyboard.press("k");
    await expect(current).toHaveAttribute("data-gate-id", first!.gate_id);

    // Typed into the reason, "a" and "d" are text.
    const reason = page.getByRole("region", { name: "deploy · step-1" }).getByLabel(/^Reason/);
    await reason.pressSequentially("a d");
    await expect(reason).toHaveValue("a d");
    expect((await readGate(apiUrl, tenant, first!.gate_id)).status).toBe("pending");
    await reason.blur();

    // a approves the open gate (with the reason typed) and opens the next; d denies that one, but not in
    // the instant after the next opened by itself (a double press must not answer an unread gate).
    await page.keyboard.press("a");
    await expect(current).toHaveAttribute("data-gate-id", second!.gate_id);
    await page.keyboard.press("a");
    await page.waitForTimeout(300);
    expect((await readGate(apiUrl, tenant, second!.gate_id)).status).toBe("pending");
    await expect(current).toHaveAttribute("data-gate-id", second!.gate_id);
    await page.waitForTimeout(800);
    await page.keyboard.press("d");
    await expect(current).toHaveAttribute("data-gate-id", third!.gate_id);
    await expect(page.getByRole("row")).toHaveCount(2);
    expect(await readGate(apiUrl, tenant, first!.gate_id)).toMatchObject({
      status: "approved",
      reason: "a d",
    });
    expect((await readGate(apiUrl, tenant, second!.gate_id)).status).toBe("denied");
    expect((await readGate(apiUrl, tenant, third!.gate_id)).status).toBe("pending");

    // The shortcut sheet lists them.
    await page.keyboard.press("?");
    const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(sheet).toContainText("Approve the open gate");
    await expect(sheet).toContainText("Deny the open gate");
  });

  test("several gates are answered at once, each with its own outcome", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const { runner, lease } = await leasedFleet(apiUrl, tenant, "Batch");
    const [first, second, third] = await openSteps(runner, lease, 3);
    const reads = await watchApprovalReads(page);
    await openFromNavigation(page, tenant, "Approvals", "/approvals");
    await expect(page.getByRole("row", { name: /step-3/ })).toBeVisible();

    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByRole("checkbox", { name: "Select deploy · step-2 of Batch" }).uncheck();
    await expect(page.getByText("2 selected", { exact: true })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Select all on this page" })).not.toBeChecked();

    // Someone denies the third meanwhile: it is reported as theirs, the first is approved.
    const release = await reads.hold();
    await answerByApi(apiUrl, tenant, third!.gate_id, "deny");
    await page.getByRole("button", { name: "Approve 2" }).click();
    const outcome = page.getByRole("region", { name: "Outcome of the answers" });
    await expect(outcome).toContainText("1 of 2 answered; 1 not.");
    await expect(outcome.getByRole("listitem").filter({ hasText: "step-1" })).toContainText("Approved");
    await expect(outcome.getByRole("listitem").filter({ hasText: "step-3" })).toContainText(
      /Already denied by API key bootstrap at/,
    );
    await release();
    await screenshot(page, testInfo, "approvals-bulk");
    expect((await readGate(apiUrl, tenant, first!.gate_id)).status).toBe("approved");
    expect((await readGate(apiUrl, tenant, second!.gate_id)).status).toBe("pending");
    await expect(page.getByRole("row", { name: /step-2/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /step-1/ })).toHaveCount(0);
  });

  test("status tabs and the fleet and kind filters live in the URL", async ({ page, tenant, apiUrl }) => {
    const a = await leasedFleet(apiUrl, tenant, "Alpha");
    const b = await leasedFleet(apiUrl, tenant, "Beta");
    await a.runner.openGate(a.lease, { gate_kind: "payment", action_name: "refund" });
    await b.runner.openGate(b.lease, { gate_kind: "deploy", action_name: "ship" });
    await openFromNavigation(page, tenant, "Approvals", "/approvals");
    await expect(page.getByRole("row", { name: /refund/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /ship/ })).toBeVisible();

    await page.getByLabel("Fleet", { exact: true }).selectOption({ label: "Beta" });
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(new RegExp(`fleet=${b.fleet.fleet_id}`));
    await expect(page.getByRole("row", { name: /refund/ })).toHaveCount(0);
    await expect(page.getByRole("row", { name: /ship/ })).toBeVisible();

    await page.getByRole("link", { name: "Clear filters" }).click();
    await page.getByLabel("Kind", { exact: true }).fill("Payment!");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText(/A kind is lowercase letters/)).toBeVisible();
    await page.getByLabel("Kind", { exact: true }).fill("payment");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/kind=payment/);
    await expect(page.getByRole("row", { name: /ship/ })).toHaveCount(0);
    await expect(page.getByRole("row", { name: /refund/ })).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("Kind", { exact: true })).toHaveValue("payment");
    await page.getByRole("tab", { name: "Denied" }).click();
    await expect(page).toHaveURL(/status=denied/);
    await expect(page.getByText("No gates match the filters")).toBeVisible();
  });

  test("a two-approver gate shows its progress, is extended once with a reason, and the second person decides it", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    await call(apiUrl, tenant.api_key, "PUT", `/v1/workspaces/${tenant.workspace_id}/approval-policy`, {
      rules: [{ name: "Two keys", match: { gate_kinds: ["deploy"] }, required_approvals: 2 }],
      escalation_webhook_url: null,
    });
    // A member already when the gate opens: only they count toward its quorum.
    const email = `approver-${tenant.tenant_id.slice(-8)}@example.test`;
    await addMember(tenant.tenant_id, email, "approval:read approval:resolve fleet:read");
    const { runner, lease } = await leasedFleet(apiUrl, tenant, "Quorum");
    const gate = await runner.openGate(lease);
    // The owner approves through their key: one of two.
    await answerByApi(apiUrl, tenant, gate.gate_id, "approve");

    await signInByLink(page, { ...tenant, email });
    await page.goto(`/approvals?workspace=${tenant.workspace_id}`);
    const row = page.getByRole("row", { name: /deploy · release/ });
    await expect(row).toContainText("1 of 2");
    const pane = page.getByRole("region", { name: "deploy · release" });
    await expect(pane).toContainText("Two keys");
    await expect(pane.locator(".gate-quorum")).toHaveText("1 of 2 approvals");
    await expect(pane.getByRole("button", { name: "Approve with changes…" })).toHaveCount(0);

    // Extended once, with a reason; then no second extension is offered.
    await pane.getByRole("button", { name: "Extend deadline…" }).click();
    await pane.getByRole("button", { name: "Extend deadline", exact: true }).click();
    await expect(pane.getByText("Say why: the reason is kept in the audit log.")).toBeVisible();
    await pane.getByLabel("Extend by").selectOption({ label: "30 minutes" });
    await pane.getByLabel("Why it needs longer").fill("The release manager is on a call.");
    await pane.getByRole("button", { name: "Extend deadline", exact: true }).click();
    await expect(pane.getByRole("status").filter({ hasText: "Extended by 30 minutes." })).toBeVisible();
    await expect(pane).toContainText("“The release manager is on a call.”");
    await expect(pane.getByRole("button", { name: "Extend deadline…" })).toHaveCount(0);
    await shot(page, testInfo, "approvals-quorum");

    await pane.getByRole("button", { name: "Approve (2 of 2)" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Approved deploy · release on Quorum." }),
    ).toBeVisible();
    const decided = await call<{ status: string; approvals: unknown[]; extended_at: number | null }>(
      apiUrl,
      tenant.api_key,
      "GET",
      `/v1/workspaces/${tenant.workspace_id}/approvals/${gate.gate_id}`,
    );
    expect(decided.status).toBe("approved");
    expect(decided.approvals).toHaveLength(2);
    expect(decided.extended_at).not.toBeNull();
  });
});
