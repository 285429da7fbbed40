import type { OutputOf } from "@fleet/contracts";
import type { getFleetEvent } from "@fleet/contracts/fleet-events/get-fleet-event";
import { DEMO_AGENT, installDemoAgent } from "../support/demo-agent.ts";
import { collectProblems, expect, openFromNavigation, screenshot, test } from "../support/fixtures.ts";
import { call } from "../support/fleet-api.ts";

/**
 * Issue 32's promise, in the browser: a person messages the demo agent fleet, watches the model's text
 * arrive, sees the gated tool call wait, approves it in the inbox, and reads the answer with what the
 * gateway metered. A real agent run: the reference runner's agent executor, the model gateway, the fake
 * vendor playing the scripted demo model at a catalogue price (support/demo-agent.ts says what differs
 * from `pnpm start`).
 */
for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`at ${width} wide: a message to the demo agent streams its text, waits at the gate for memory_write, is approved in the inbox, and answers with its tokens and cost`, async ({
    page,
    tenant,
    apiUrl,
  }, testInfo) => {
    // A tenant, a sign-in and a three-step run with a person in the middle, on two shared cores.
    test.setTimeout(180_000);
    const problems = collectProblems(page);
    await page.setViewportSize({ width, height });
    const agent = await test.step("install the demo agent and its runner", () =>
      installDemoAgent(apiUrl, tenant));
    /** On a phone as on a desk, no screen scrolls sideways. */
    const fitsWidth = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    try {
      await test.step("open the demo fleet", async () => {
        await openFromNavigation(page, tenant, "Fleets", "/fleets");
        await page.getByRole("main").getByRole("link", { name: DEMO_AGENT, exact: true }).click();
        await expect(page.getByRole("heading", { level: 1, name: DEMO_AGENT })).toBeVisible();
        // Its definition: the board read runs freely, the memory waits for a person.
        const tools = page.getByRole("list", { name: "Tools" });
        await expect(tools.locator('[data-tool="memory_write"]')).toContainText("Needs approval");
        await expect(tools.locator('[data-tool="http_request"]')).not.toContainText("Needs approval");
      });

      const message = "How is the shop doing?";
      const conversation = page.getByRole("log", { name: `Conversation with ${DEMO_AGENT}` });
      const turn = conversation.getByRole("listitem").filter({ hasText: message });
      const eventId = await test.step("send a message and watch the run up to its gate", async () => {
        await page.getByLabel(`Message to ${DEMO_AGENT}`).fill(message);
        await page.getByRole("button", { name: "Send message" }).click();
        await expect(page.getByRole("status").filter({ hasText: "Sent as event" })).toBeVisible();
        // The conversation follows the run live: the model's words as the gateway streams them, the board
        // read as a finished step, the memory's call waiting at its gate; the event has no answer yet.
        await expect(turn).toContainText("Let me read the status board first.");
        await expect(turn).toContainText("The board says checkout is degraded");
        const read = turn.locator('[data-call-id="call_read_board"]');
        await expect(read).toHaveAttribute("data-status", "ok");
        await expect(turn.locator('[data-call-id="call_remember"]')).toContainText("memory_write");
        await expect(turn).toHaveAttribute("data-in-flight", "true");
        await expect(turn).toContainText("Waiting for approval");
        const id = (await turn.getAttribute("data-event-id"))!;
        const stored = await readEvent(apiUrl, tenant, agent.fleet.fleet_id, id);
        expect(stored.status).toBe("received");
        expect(stored.response_text ?? null).toBeNull();
        // The board read opens on what it sent and what came back.
        await read.locator("summary").click();
        await expect(read).toContainText('"name":"checkout","status":"degraded"');
        await fitsWidth();
        await screenshot(page, testInfo, `demo-agent-${width}-waiting`);
        return id;
      });

      await test.step("approve the memory in the inbox", async () => {
        // The gate's link opens the inbox on it: what the model wants to remember and why.
        await turn.getByRole("link", { name: "Open the gate for memory_write" }).click();
        await expect(page.getByRole("heading", { level: 1, name: "Approvals" })).toBeVisible();
        const detail = page.getByRole("main");
        await expect(detail).toContainText('memory_write {"key":"status-board"');
        await expect(detail).toContainText("I would like to remember that for later runs");
        await fitsWidth();
        await screenshot(page, testInfo, `demo-agent-${width}-inbox`);
        await page
          .getByRole("form", { name: "Answer memory_write" })
          .getByRole("button", { name: "Approve", exact: true })
          .click();
        await expect(detail).toContainText("You approved this gate.");
        await screenshot(page, testInfo, `demo-agent-${width}-approved`);
      });

      await test.step("read the answer, its tokens and its cost", async () => {
        await page.getByRole("link", { name: /^the run (waiting for this answer|that asked)$/ }).click();
        await expect(page.locator(".run-page")).toHaveAttribute("data-status", "processed");
        const run = page.getByRole("log", { name: "The run's conversation" });
        await expect(run).toContainText("The status board says checkout is degraded");
        await expect(run).toContainText("I remembered it as the memory status-board.");
        // The tokens and cost the gateway metered, as the event stores them: a priced model, so not $0.
        const event = await readEvent(apiUrl, tenant, agent.fleet.fleet_id, eventId);
        expect(event.status).toBe("processed");
        expect(event.tokens).toBeGreaterThan(0);
        expect(event.cost_nanos).toBeGreaterThan(0);
        const tokens = event.tokens!.toLocaleString("en-US");
        await expect(run).toContainText(new RegExp(`${tokens} tokens · \\$0\\.\\d*[1-9]`));
        await fitsWidth();
        await screenshot(page, testInfo, `demo-agent-${width}-answer`);
      });
      expect(problems).toEqual([]);
    } finally {
      await agent.stop();
    }
  });
}

type FleetEvent = OutputOf<typeof getFleetEvent>;

function readEvent(
  apiUrl: string,
  tenant: { api_key: string; workspace_id: string },
  fleetId: string,
  id: string,
) {
  return call<FleetEvent>(
    apiUrl,
    tenant.api_key,
    "GET",
    `/v1/workspaces/${tenant.workspace_id}/fleets/${fleetId}/events/${id}`,
  );
}
