import { randomUUID } from "node:crypto";
import type { OutputOf } from "@fleet/contracts";
import type { listFleetEvents } from "@fleet/contracts/fleet-events/list-fleet-events";
import type { Page, Route } from "@playwright/test";
import { collectProblems, expect, openFromNavigation, screenshot, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  call,
  definition,
  type InstalledFleet,
  installFleet,
  messageFleet,
  TestRunner,
} from "../support/fleet-api.ts";
import type { Tenant } from "../support/fleetctl.ts";

type EventPage = OutputOf<typeof listFleetEvents>;

/** A fleet of the test's own, served by the test's runner, with its page open. */
async function openFleet(
  page: Page,
  tenant: Tenant,
  apiUrl: string,
  runner: TestRunner,
): Promise<InstalledFleet> {
  const name = `Release helper ${randomUUID().slice(0, 6)}`;
  const entry = await addTenantEntry(
    apiUrl,
    tenant,
    definition({ name, description: "Answers questions about releases.", runnerLabels: [runner.label] }),
  );
  const fleet = await installFleet(apiUrl, tenant, entry, name);
  await openFromNavigation(page, tenant, "Fleets", "/fleets");
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  return fleet;
}

function events(apiUrl: string, tenant: Tenant, fleetId: string): Promise<EventPage> {
  return call<EventPage>(
    apiUrl,
    tenant.api_key,
    "GET",
    `/v1/workspaces/${tenant.workspace_id}/fleets/${fleetId}/events`,
  );
}

/** Resolves when called; the promise a held request waits on. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

test.describe("The run as it happens", () => {
  test("the API paused mid-send, then resumed, leaves exactly one event, and the page says so", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    // Two sends are held as a paused API holds them: no answer reaches the browser until the client's
    // 15 s timeout has passed; then the API "resumes" and serves the held requests in order.
    test.setTimeout(90_000);
    const problems = collectProblems(page);
    const runner = new TestRunner(apiUrl);
    const fleet = await openFleet(page, tenant, apiUrl, runner);
    const resumed = gate();
    const held: Promise<unknown>[] = [];
    const bodies: string[] = [];
    await page.route("**/trpc/fleets.message**", (route: Route) => {
      bodies.push(route.request().postData() ?? "");
      held.push(
        (async () => {
          await resumed.opened;
          // The API now does the held work; the browser that gave up on the first gets nothing back.
          const answer = await route.fetch();
          await route.fulfill({ response: answer }).catch(() => undefined);
        })(),
      );
    });

    const message = `Is v2.${randomUUID().slice(0, 4)} safe to release?`;
    await page.getByLabel(`Message to ${fleet.name}`).fill(message);
    await page.getByRole("button", { name: "Send message" }).click();
    const status = page.locator(".message-box__sent");
    // After the client timeout the page does not claim a failure: it may have been sent, and it asks again.
    await expect(status).toHaveAttribute("data-state", "asking-again", { timeout: 25_000 });
    await expect(status).toContainText("may have been sent");
    await screenshot(page, testInfo, "send-asking-again");
    await expect.poll(() => bodies.length, { timeout: 10_000 }).toBe(2);
    resumed.open();
    await Promise.all(held);
    await expect(status).toHaveAttribute("data-state", "sent-after-loss");
    await expect(status).toContainText("Sent once");
    await page.unroute("**/trpc/fleets.message**");

    // Both attempts carried one key; the API stored one event.
    // tRPC's batch body: the call's input under "0".
    const keys = bodies.map(
      (body) => (JSON.parse(body) as Record<string, { idempotency_key?: string }>)["0"]?.idempotency_key,
    );
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    const stored = await events(apiUrl, tenant, fleet.fleet_id);
    expect(stored.items).toHaveLength(1);
    const conversation = page.getByRole("log", { name: `Conversation with ${fleet.name}` });
    await expect(conversation.getByRole("listitem").filter({ hasText: message })).toHaveCount(1);
    await screenshot(page, testInfo, "send-once");
    expect(problems).toEqual([]);
  });

  test("a send whose answers are lost says it may have been sent, and a retry stores it once", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const runner = new TestRunner(apiUrl);
    const fleet = await openFleet(page, tenant, apiUrl, runner);
    // Each attempt reaches the API, and its answer is lost on the way back.
    let attempts = 0;
    await page.route("**/trpc/fleets.message**", async (route: Route) => {
      attempts += 1;
      await route.fetch();
      await route.abort("connectionreset");
    });
    const message = "Roll back web to v1.";
    await page.getByLabel(`Message to ${fleet.name}`).fill(message);
    await page.getByRole("button", { name: "Send message" }).click();
    const alert = page.getByRole("alert", { name: "The message may have been sent" });
    await expect(alert).toBeVisible({ timeout: 15_000 });
    // Never a parser's or the browser's own words.
    await expect(alert).not.toContainText(/Unexpected token|Failed to fetch|JSON/);
    expect(attempts).toBe(2);
    await screenshot(page, testInfo, "send-may-have-been-sent");

    await page.unroute("**/trpc/fleets.message**");
    await alert.getByRole("button", { name: "Try sending again" }).click();
    const status = page.locator(".message-box__sent");
    await expect(status).toHaveAttribute("data-state", "sent-after-loss");
    const stored = await events(apiUrl, tenant, fleet.fleet_id);
    expect(stored.items).toHaveLength(1);
    await expect(status).toContainText(stored.items[0]!.event_id.slice(0, 8));

    // The answer shows inline under its message, without opening the event.
    const lease = await runner.lease();
    await runner.report(lease, {
      outcome: "processed",
      response_text: "Rolled web back to v1; error rate is back to 0.1 %.",
      tokens: 512,
      wall_ms: 4200,
      cost_nanos: 1_900_000,
    });
    const conversation = page.getByRole("log", { name: `Conversation with ${fleet.name}` });
    const turn = conversation.getByRole("listitem").filter({ hasText: message });
    await expect(turn).toHaveAttribute("data-status", "processed");
    await expect(turn).toContainText("Rolled web back to v1; error rate is back to 0.1 %.");
    await expect(turn).toContainText("512 tokens");
    // Wide last: below 900 px the navigation is folded behind the menu button.
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, testInfo, `fleet-conversation-${width}`);
    }

    // The workspace's Events page lists it, with its fleet and outcome.
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: /Events/ })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Events" })).toBeVisible();
    const feed = page.getByRole("log", { name: "Events of the workspace" });
    await expect(feed.getByRole("listitem").filter({ hasText: fleet.name })).toHaveAttribute(
      "data-status",
      "processed",
    );
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, testInfo, `events-${width}`);
    }
  });

  test("a live badge leaves Live within seconds when the API stops answering, though its stream stays open", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    test.setTimeout(90_000);
    const runner = new TestRunner(apiUrl);
    await openFleet(page, tenant, apiUrl, runner);
    const badge = page.getByRole("tabpanel").locator(".live-status");
    await expect(badge).toHaveAttribute("data-state", "live");

    // Every new request hangs, as against a hung API; the open stream itself stays healthy and quiet
    // (the server's heartbeat would keep it Live forever: silence alone never noticed).
    const hang = gate();
    const held = async (route: Route) => {
      await hang.opened;
      await route.fallback().catch(() => undefined);
    };
    await page.route("**/trpc/**", held);
    await page.route("**/v1/workspaces/**", held);
    // Asked after 5 s of quiet and given 3 s: well inside 12 s, where the stream's own silence took 20.
    await expect(badge).toHaveAttribute("data-state", /reconnecting|offline/, { timeout: 12_000 });

    hang.open();
    await page.unroute("**/trpc/**");
    await page.unroute("**/v1/workspaces/**");
    await page
      .getByRole("tabpanel")
      .getByRole("button", { name: "Reconnect" })
      .click({ timeout: 1_000 })
      .catch(() => undefined);
    await expect(badge).toHaveAttribute("data-state", "live", { timeout: 40_000 });
  });

  test("a fresh page whose API does not answer shows an error with a retry, and the live badge stops saying Live", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    test.setTimeout(120_000);
    const runner = new TestRunner(apiUrl);
    // The stream is held unanswered from the start: an open stream answers heartbeats while the API
    // lives, so the badge is honest to say Live then, and only a silent stream may take it away.
    const hang = gate();
    await page.route("**/v1/workspaces/**", async (route: Route) => {
      await hang.opened;
      await route.fallback().catch(() => undefined);
    });
    const fleet = await openFleet(page, tenant, apiUrl, runner);
    const events = page.getByRole("tabpanel").locator(".live-status");
    await expect(events).not.toHaveAttribute("data-state", "live");

    // Then the rest of the API stops answering too (requests hang).
    await page.route("**/trpc/**", async (route: Route) => {
      await hang.opened;
      await route.fallback().catch(() => undefined);
    });
    await expect(events).toHaveAttribute("data-state", /reconnecting|offline/, { timeout: 30_000 });
    await screenshot(page, testInfo, "live-reconnecting");

    // A fresh page with the API silent: an error that says so, with a retry, not "Loading…" forever. Not
    // the fleet page: its first data is asked for by the console's server as it renders, server to server,
    // where this test's routes cannot hold it (and the API answers the other tests, so it cannot be
    // stopped); the Fleets list asks from the browser.
    await page.goto(`/fleets?workspace=${tenant.workspace_id}`);
    const problem = page.getByRole("alert").filter({ hasText: "The API is not answering" }).first();
    await expect(problem).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("alert").filter({ hasText: /Unexpected token/ })).toHaveCount(0);
    await screenshot(page, testInfo, "fresh-page-api-silent");

    await expect(problem.getByRole("button", { name: "Try again" })).toBeVisible();
    const identity = page.getByRole("region", { name: "Signed in as" });
    await expect(identity).toContainText("The API did not answer", { timeout: 30_000 });

    // Left open, the page recovers by itself once the API is back, without a click or a reload: every query
    // that failed for an outage asks again every 15 s, the list and the shell's signed-in person alike.
    hang.open();
    await page.unroute("**/trpc/**");
    await page.unroute("**/v1/workspaces/**");
    await expect(page.getByRole("link", { name: fleet.name })).toBeVisible({ timeout: 25_000 });
    await expect(identity).toContainText(/^.+Tenant /, { timeout: 25_000 });
    await expect(identity).not.toContainText("did not answer");
  });

  test("a runner publishes frames and the page shows them without a reload", async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    const problems = collectProblems(page);
    const runner = new TestRunner(apiUrl);
    const fleet = await openFleet(page, tenant, apiUrl, runner);
    const conversation = page.getByRole("region", { name: "Conversation" });
    await expect(conversation.locator(".live-status")).toHaveAttribute("data-state", "live");

    await messageFleet(apiUrl, tenant, fleet.fleet_id, "What changed since v1?");
    const lease = await runner.lease();
    await runner.publish(lease, [
      { tool_call_started: { name: "git_log", args_redacted: '{"range":"v1..HEAD"}' } },
      { tool_call_progress: { name: "git_log", elapsed_ms: 400 } },
      { tool_call_completed: { name: "git_log", ms: 912 } },
      { fleet_response_chunk: { text: "Three changes: " } },
      { fleet_response_chunk: { text: "the login fix, the new export, faster search." } },
    ]);
    // Shown from the frames alone: nothing has been reported yet, and the page was not reloaded.
    const turn = conversation.locator(`li[data-event-id="${lease.event_id}"]`);
    await expect(turn).toContainText("What changed since v1?");
    // A completed frame without a status (a runner before call ids and statuses) reads as ok.
    await expect(turn.getByRole("list", { name: "Steps of the run" })).toContainText(
      "git_log ok took 912 ms",
    );
    await expect(turn).toContainText("Three changes: the login fix, the new export, faster search.");
    await expect(turn).toContainText("Running…");
    await screenshot(page, testInfo, "run-in-flight");

    await runner.report(lease, {
      outcome: "processed",
      response_text: "Three changes: the login fix, the new export, faster search.",
      tokens: 321,
      wall_ms: 1800,
    });
    await expect(turn).toHaveAttribute("data-status", "processed");
    await expect(turn).toContainText("321 tokens");
    await screenshot(page, testInfo, "run-complete");
    expect(problems).toEqual([]);
  });
});
