import type { OutputOf } from "@fleet/contracts";
import type { listMemories } from "@fleet/contracts/memories/list-memories";
import { beforeAll, describe, expect, it } from "vitest";
import {
  completions,
  messagesOf,
  storeSecret,
  tailFleet,
  toolCall,
  useAgentWorld,
} from "./agent-fixtures.ts";
import {
  api,
  expectNoSecrets,
  type Fleet,
  heldLease,
  installFleet,
  leasesOf,
  live,
  message,
  processed,
  type RunnerProcess,
  readEvent,
  startRunner,
  until,
} from "./harness.ts";

/**
 * The agent executor against a real API whose tenant's provider is the fake model vendor: the vendor's
 * scripts play the model, a local HTTP service plays the outside world.
 */
const CANARY = `ghp_canary_${Math.random().toString(36).slice(2)}never_to_the_model`;
const world = useAgentWorld();
beforeAll(() => storeSecret("GITHUB_TOKEN", { token: CANARY }));

/**
 * A fleet whose model may call http_request to 127.0.0.1 with the GITHUB_TOKEN secret, memory_write and
 * schedule_create.
 */
function agentFleet(): Promise<Fleet> {
  return installFleet({
    requires: [
      "tools: [http_request, memory_write, schedule_create]",
      "network_hosts: [127.0.0.1]",
      "credentials:",
      "  - name: GITHUB_TOKEN",
      "    reason: reads the repositories",
    ],
    instructions: "You are the repository helper. Use your tools, then answer in one line.",
  });
}

/** A runner process with the agent executor, for the fleet's label. */
const agentRunner = (host: string, fleet: Fleet, env: Record<string, string> = {}) =>
  startRunner(host, fleet, { FLEET_RUNNER_EXECUTOR: "agent", ...env });

/** SIGTERM, and the clean exit that follows. */
async function stop(runner: RunnerProcess): Promise<void> {
  runner.child.kill("SIGTERM");
  expect(await runner.exited).toBe(0);
}

describe("the agent executor", () => {
  let fleet: Fleet;

  it("runs a tool loop: the model calls http_request with a secret placeholder, reads the answer, and answers", async () => {
    fleet = await agentFleet();
    const runner = agentRunner("agent-host", fleet);
    const from = world.vendor.calls.length;
    const url = `http://127.0.0.1:${world.service.port}/repos`;
    world.vendor.script(
      toolCall("call_repos", "http_request", {
        url,
        headers: { authorization: "Bearer {{secrets.GITHUB_TOKEN.token}}" },
      }),
      { kind: "answer", text: "You have two repositories: alpha and beta." },
    );
    const tail = await tailFleet(fleet);
    const eventId = await message(fleet, "Which repositories do I have?");
    const event = await processed(fleet, eventId);
    expect(event).toMatchObject({
      status: "processed",
      response_text: "You have two repositories: alpha and beta.",
    });

    // The service got the secret's value; the model never did.
    expect(world.service.requests.at(-1)).toMatchObject({ path: "/repos" });
    expect(world.service.requests.at(-1)!.headers.authorization).toBe(`Bearer ${CANARY}`);
    const calls = completions(world.vendor, from);
    expect(calls).toHaveLength(2);
    expect(JSON.stringify(calls.map((call) => call.body))).not.toContain(CANARY);
    expect(messagesOf(calls[0]!).slice(0, 2)).toEqual([
      { role: "system", content: "You are the repository helper. Use your tools, then answer in one line." },
      { role: "user", content: "Which repositories do I have?" },
    ]);
    const result = messagesOf(calls[1]!).find((item) => item.role === "tool");
    expect(result).toMatchObject({ tool_call_id: "call_repos" });
    expect(String(result!.content)).toContain("HTTP 200");
    expect(String(result!.content)).toContain('"repos":["alpha","beta"]');
    expect(String(result!.content)).toContain("Bearer [secret:GITHUB_TOKEN]");

    // Live frames: the call started and completed with its id; the model's text came from the gateway.
    await until("the run's frames", async () =>
      tail.frames.some((frame) => frame.kind === "event_complete") ? true : undefined,
    );
    tail.stop();
    const payloads = (kind: string) =>
      tail.frames.filter((frame) => frame.kind === kind).map((frame) => frame.data.payload);
    expect(payloads("tool_call_started")).toEqual([
      expect.objectContaining({ name: "http_request", call_id: "call_repos" }),
    ]);
    expect(
      JSON.parse(String((payloads("tool_call_started")[0] as { args_redacted: string }).args_redacted)),
    ).toMatchObject({ url, headers: { authorization: "Bearer {{secrets.GITHUB_TOKEN.token}}" } });
    expect(payloads("tool_call_completed")).toEqual([
      expect.objectContaining({ name: "http_request", call_id: "call_repos", status: "ok" }),
    ]);
    const completed = payloads("tool_call_completed")[0] as { output_head: string };
    expect(completed.output_head).toContain("HTTP 200");
    expect(JSON.stringify(tail.frames)).not.toContain(CANARY);
    expect(
      payloads("chunk")
        .map((chunk) => (chunk as { text: string }).text)
        .join(""),
    ).toContain("two repositories");
    await stop(runner);
    expectNoSecrets(runner);
    expect(runner.output.join("")).not.toContain(CANARY);
  }, 60_000);

  it("refuses http_request to a host outside network_hosts without sending it, and tells the model", async () => {
    const runner = agentRunner("agent-refusing-host", fleet);
    const from = world.vendor.calls.length;
    const before = world.service.requests.length;
    world.vendor.script(
      toolCall("call_out", "http_request", { url: `http://localhost:${world.service.port}/steal` }),
      {
        kind: "answer",
        text: "I may not reach that host.",
      },
    );
    const eventId = await message(fleet, "Fetch from localhost");
    expect(await processed(fleet, eventId)).toMatchObject({
      status: "processed",
      response_text: "I may not reach that host.",
    });
    expect(world.service.requests.length).toBe(before);
    const result = messagesOf(completions(world.vendor, from)[1]!).find((item) => item.role === "tool");
    expect(String(result!.content)).toContain("Refused: localhost is not one of the fleet's network hosts");
    await stop(runner);
  }, 60_000);

  it("stops at the step cap and reports fleet_error step_limit", async () => {
    const capped = await agentFleet();
    const runner = agentRunner("agent-capped-host", capped, {
      FLEET_RUNNER_AGENT_MAX_STEPS: "2",
    });
    const from = world.vendor.calls.length;
    world.vendor.script(
      toolCall("call_m1", "memory_write", { key: "first", content: "one" }),
      toolCall("call_m2", "memory_write", { key: "second", content: "two" }),
    );
    const eventId = await message(capped, "Remember forever");
    expect(await processed(capped, eventId)).toMatchObject({
      status: "fleet_error",
      failure_label: "step_limit",
      failure_detail: expect.stringContaining("after 2 steps"),
    });
    expect(completions(world.vendor, from)).toHaveLength(2);
    const memories = await api<OutputOf<typeof listMemories>>(
      "GET",
      `/v1/workspaces/${live.tenant.workspace_id}/fleets/${capped.fleetId}/memories`,
      live.tenant.api_key,
    );
    expect(memories.body.items.map((item) => [item.key, item.content]).sort()).toEqual([
      ["first", "one"],
      ["second", "two"],
    ]);
    await stop(runner);
  }, 60_000);

  it("creates the schedule the model asks for, and tells the model what the service refused", async () => {
    const planner = await agentFleet();
    const runner = agentRunner("agent-planner-host", planner);
    const from = world.vendor.calls.length;
    world.vendor.script(
      {
        kind: "answer",
        toolCalls: [
          {
            id: "call_ok",
            name: "schedule_create",
            arguments: JSON.stringify({ cron: "0 9 * * 1", message: "Weekly report" }),
          },
          {
            id: "call_bad",
            name: "schedule_create",
            arguments: JSON.stringify({ cron: "not a cron", message: "Never" }),
          },
        ],
      },
      { kind: "answer", text: "One schedule made, one refused." },
    );
    const eventId = await message(planner, "Plan my week");
    expect(await processed(planner, eventId)).toMatchObject({ status: "processed" });
    const results = messagesOf(completions(world.vendor, from)[1]!).filter((item) => item.role === "tool");
    const content = (id: string) => String(results.find((item) => item.tool_call_id === id)?.content);
    expect(content("call_ok")).toMatch(/^Scheduled "Weekly report" at 0 9 \* \* 1: \S+, next fire 20/);
    expect(content("call_bad")).toMatch(/^The schedule was refused \(UZ-/);
    const schedules = await api<{ items: { message: string; source: string }[] }>(
      "GET",
      `/v1/workspaces/${live.tenant.workspace_id}/fleets/${planner.fleetId}/schedules`,
      live.tenant.api_key,
    );
    expect(schedules.body.items).toEqual([
      expect.objectContaining({ message: "Weekly report", source: "fleet" }),
    ]);
    await stop(runner);
  }, 60_000);

  it("reports fleet_error model_error with the gateway's code when the model cannot be called", async () => {
    const refused = await agentFleet();
    const runner = agentRunner("agent-refused-host", refused);
    const from = world.vendor.calls.length;
    world.vendor.script({ kind: "status", status: 401, message: "bad key" });
    const eventId = await message(refused, "Hello?");
    expect(await processed(refused, eventId)).toMatchObject({
      status: "fleet_error",
      failure_label: "model_error",
      failure_detail: expect.stringContaining("UZ-MODEL-005"),
    });
    // A refusal no retry changes is not retried (the AI SDK would retry a 409).
    expect(completions(world.vendor, from)).toHaveLength(1);
    await stop(runner);
  }, 60_000);

  it("stops a run past its time bound and reports fleet_error time_limit", async () => {
    const bounded = await agentFleet();
    const runner = agentRunner("agent-timed-host", bounded, {
      FLEET_RUNNER_AGENT_MAX_MS: "1000",
    });
    world.vendor.script({ kind: "answer", text: "slow ".repeat(20), chunks: 20, chunkDelayMs: 1_000 });
    const eventId = await message(bounded, "Take all the time you need");
    expect(await processed(bounded, eventId)).toMatchObject({
      status: "fleet_error",
      failure_label: "time_limit",
      failure_detail: expect.stringContaining("1000 ms"),
    });
    await stop(runner);
  }, 60_000);

  it("when the lease is given up mid-stream, aborts the model stream and reports nothing, within 1 s", async () => {
    const slow = await agentFleet();
    const runner = agentRunner("agent-lost-host", slow, {
      FLEET_RUNNER_SHUTDOWN_GRACE_MS: "0",
    });
    const from = world.vendor.calls.length;
    world.vendor.script({
      kind: "answer",
      text: "a very slow answer ".repeat(30),
      chunks: 30,
      chunkDelayMs: 1_000,
    });
    const eventId = await message(slow, "Take your time");
    const lease = await heldLease(await runner.runnerId(), eventId);
    await until("the model call to start", async () =>
      completions(world.vendor, from).length > 0 ? true : undefined,
    );
    const stopped = Date.now();
    runner.child.kill("SIGTERM");
    await runner.exited;
    // The runner exits once nothing holds it: an open model stream (30 s long) would.
    expect(Date.now() - stopped).toBeLessThan(1_000);
    expect(runner.output.join("")).toContain("giving the lease up unreported");
    expect(runner.output.join("")).not.toContain('"reported"');
    expect((await readEvent(slow, eventId)).body.status).toBe("received");
    const ended = (await leasesOf(await runner.runnerId())).find((item) => item.lease_id === lease.lease_id);
    expect(ended?.outcome).not.toBe("succeeded");
  }, 60_000);
});
