import { randomUUID } from "node:crypto";
import { collectProblems, expect, looksAtSizes, signInToLanding, test } from "../support/fixtures.ts";
import {
  addTenantEntry,
  definition,
  installFleet,
  messageFleet,
  requesterToken,
  TestRunner,
} from "../support/fleet-api.ts";
import { priceVendorModel, setVendorProvider } from "../support/model-vendor.ts";

test.describe("an agent run's page", () => {
  // The tenant fixture and the builds of a shared two-core machine can take minutes.
  test.describe.configure({ timeout: 300_000 });

  test("the definition marks gated tools; the run streams text and tool steps, and its gate is answered inline", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    const problems = collectProblems(page);
    const runner = new TestRunner(apiUrl);
    const name = `Status agent ${randomUUID().slice(0, 6)}`;
    const entry = await addTenantEntry(
      apiUrl,
      tenant,
      definition({
        name,
        description: "Reads and posts the status board.",
        runnerLabels: [runner.label],
        tools: ["memory_write", { name: "http_request", approval: "required" }],
      }),
    );
    const fleet = await installFleet(apiUrl, tenant, entry, name);

    // The fleet page: its tools, the gated one marked.
    await signInToLanding(page, tenant);
    await page.goto(`/fleets/${fleet.fleet_id}?workspace=${tenant.workspace_id}`);
    const tools = page.getByRole("list", { name: "Tools" });
    await expect(tools.locator('[data-tool="http_request"]')).toContainText("Needs approval");
    await expect(tools.locator('[data-tool="memory_write"]')).not.toContainText("Needs approval");

    const message = "Is the status board green?";
    // Another member asks: the person who caused a gate does not approve it (the policy's default).
    const sent = await messageFleet(
      apiUrl,
      tenant,
      fleet.fleet_id,
      message,
      await requesterToken(apiUrl, tenant),
    );
    await page.goto(`/fleets/${fleet.fleet_id}/runs/${sent.event_id}?workspace=${tenant.workspace_id}`);
    const run = page.getByRole("log", { name: "The run's conversation" });
    await expect(run).toContainText(message);
    await expect(page.locator(".run-page .live-status")).toHaveAttribute("data-state", "live");

    // The runner's frames: text as it is written, a tool call by its id with arguments and output.
    const lease = await runner.lease();
    expect(lease.event_id).toBe(sent.event_id);
    await runner.publish(lease, [
      { fleet_response_chunk: { text: "Let me look at " } },
      { fleet_response_chunk: { text: "the board." } },
      {
        tool_call_started: {
          name: "http_request",
          call_id: "call_read",
          args_redacted: '{"method":"GET","url":"http://status.local/board"}',
        },
      },
      { tool_call_progress: { name: "http_request", call_id: "call_read", elapsed_ms: 2_400 } },
    ]);
    await expect(run).toContainText("Let me look at the board.");
    const step = run.locator('[data-call-id="call_read"]');
    await expect(step).toContainText("running for 2.4 s");
    await runner.publish(lease, [
      {
        tool_call_completed: {
          name: "http_request",
          call_id: "call_read",
          ms: 2_700,
          status: "ok",
          output_head: '{"board":"green","items":[',
          output_tail: "]}",
        },
      },
    ]);
    await expect(step).toHaveAttribute("data-status", "ok");
    await expect(step).toContainText("took 2.7 s");
    // Folded until opened: then its arguments and its output, head … tail.
    await expect(step.getByText('"url": "http://status.local/board"')).toBeHidden();
    await step.locator("summary").click();
    await expect(step.getByText('"url": "http://status.local/board"')).toBeVisible();
    await expect(step).toContainText('{"board":"green","items":[');
    await expect(step).toContainText("(output cut here)");

    // A gated call waits: its gate shows inline, answered from the run's page.
    const gate = await runner.openGate(lease, {
      tool_name: "http_request",
      action_name: "POST",
      proposed_action: 'http_request {"method":"POST","url":"http://status.local/board"}',
      blast_radius: "the status board",
    });
    const inline = page.getByRole("region", { name: "The approval this run waits for" });
    await expect(inline).toHaveAttribute("data-gate-id", gate.gate_id);
    await expect(inline).toContainText("the status board");
    await looksAtSizes(page, "run-steps-gate");
    await inline.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(inline).toContainText("You approved this gate.");
    const answered = await runner.waitGate(lease, gate.gate_id);
    expect(answered.status).toBe("approved");
    await expect(run.locator('[data-step="gate"]')).toHaveAttribute("data-outcome", "approved");

    // The answer, with the tokens and cost the gateway metered on the event.
    await runner.report(lease, {
      outcome: "processed",
      response_text: "Let me look at the board. It is green; I posted the update.",
      tokens: 1_234,
      wall_ms: 4_000,
      cost_nanos: 3_500_000,
    });
    await expect(page.locator(".run-page")).toHaveAttribute("data-status", "processed");
    await expect(run).toContainText("1,234 tokens");
    await expect(page.getByRole("region", { name: "The approval this run waits for" })).toHaveCount(0);
    // Reloaded (or opened later): the API kept the run's frames, so its steps are still there.
    await page.reload();
    const kept = page.getByRole("log", { name: "The run's conversation" });
    await expect(kept.locator('[data-call-id="call_read"]')).toHaveAttribute("data-status", "ok");
    await expect(kept.locator('[data-call-id="call_read"]')).toContainText("took 2.7 s");
    await expect(kept.locator('[data-step="gate"]')).toHaveAttribute("data-outcome", "approved");
    await looksAtSizes(page, "run-steps-done");
    expect(problems).toEqual([]);
  });
});

test.describe("Test connection", () => {
  test("answers connected with the model and latency, and a refused key in words", async ({
    page,
    tenant,
    apiUrl,
  }) => {
    test.slow();
    const problems = collectProblems(page);
    // The fake vendor serves gpt-4o-mini; the catalogue prices it.
    await priceVendorModel(apiUrl);
    await setVendorProvider(apiUrl, tenant);

    await signInToLanding(page, tenant);
    await page.goto("/models");
    const section = page.getByRole("region", { name: "Your provider" });
    await section.getByRole("button", { name: "Test connection" }).click();
    const result = section.getByRole("status").filter({ hasText: /Connected|refused|reached/ });
    await expect(result).toHaveAttribute("data-outcome", "ok");
    await expect(result).toContainText("Connected.");
    await expect(result).toContainText("gpt-4o-mini");
    await looksAtSizes(page, "provider-test-ok");

    await setVendorProvider(apiUrl, tenant, "sk-not-the-vendors-key");
    await page.reload();
    await section.getByRole("button", { name: "Test connection" }).click();
    await expect(result).toHaveAttribute("data-outcome", "failed");
    await expect(result).toContainText("The provider refused the key");
    await expect(result).not.toContainText("sk-not-the-vendors-key");
    await looksAtSizes(page, "provider-test-refused");
    expect(problems).toEqual([]);
  });
});
