import { describe, expect, it } from "vitest";
import {
  approveGate,
  completions,
  messagesOf,
  pendingGate,
  toolCall,
  useAgentWorld,
} from "./agent-fixtures.ts";
import { type Fleet, installFleet, message, processed, startRunner, until } from "./harness.ts";

/**
 * A reclaimed agent run never runs an approved action twice, and the definition's agent.max_steps bounds
 * the loop; against a real API whose provider is the fake model vendor.
 */
const world = useAgentWorld();

async function approvePending(fleet: Fleet): Promise<void> {
  const approved = await approveGate((await pendingGate(fleet)).gate_id);
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
}

describe("a reclaimed agent run", () => {
  it("finds the approved gate of the call again and does not run its action a second time", async () => {
    const fleet = await installFleet({
      requires: ["tools:", "  - {name: http_request, approval: required}", "network_hosts: [127.0.0.1]"],
    });
    const url = `http://127.0.0.1:${world.service.port}/deploy-once`;
    const call = toolCall("call_deploy_once", "http_request", { method: "POST", url });
    // The first runner's model calls the tool, then its next call never answers: the runner dies there.
    world.vendor.script(call, { kind: "hang" });
    const before = world.vendor.calls.length;
    const first = startRunner("replay-first", fleet, { FLEET_RUNNER_EXECUTOR: "agent" });
    const eventId = await message(fleet, "Deploy once.");
    await approvePending(fleet);
    // Killed once its model's next call (the hanging one) has begun, after the action ran.
    await until("the model's call after the deploy", async () =>
      completions(world.vendor, before).length >= 2 ? true : undefined,
    );
    expect(world.service.requests.filter((request) => request.path === "/deploy-once")).toHaveLength(1);
    first.child.kill("SIGKILL");
    await first.exited;

    // The reclaimed run's model repeats the call (same call id), then answers.
    const from = world.vendor.calls.length;
    world.vendor.script(call, { kind: "answer", text: "It was deployed before." });
    const second = startRunner("replay-second", fleet, { FLEET_RUNNER_EXECUTOR: "agent" });
    expect(await processed(fleet, eventId)).toMatchObject({
      status: "processed",
      response_text: "It was deployed before.",
    });
    expect(world.service.requests.filter((request) => request.path === "/deploy-once")).toHaveLength(1);
    const calls = completions(world.vendor, from);
    const result = messagesOf(calls.at(-1)!).find((item) => item.role === "tool");
    expect(String(result!.content)).toMatch(
      /^This approved http_request call already ran in an earlier attempt of this run \(started .+\); it was not run again/,
    );
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 90_000);
});

describe("the definition's agent.max_steps", () => {
  it("bounds the run's model calls under the runner's cap", async () => {
    const fleet = await installFleet({
      frontMatter: ["agent:", "  max_steps: 1"],
      requires: ["tools: [memory_write]"],
    });
    const runner = startRunner("steps-host", fleet, { FLEET_RUNNER_EXECUTOR: "agent" });
    const from = world.vendor.calls.length;
    world.vendor.script(toolCall("call_m1", "memory_write", { key: "k", content: "v" }));
    const eventId = await message(fleet, "Remember");
    expect(await processed(fleet, eventId)).toMatchObject({
      status: "fleet_error",
      failure_label: "step_limit",
      failure_detail: "The model was still calling tools after 1 steps, the run's bound (1).",
    });
    expect(completions(world.vendor, from)).toHaveLength(1);
    runner.child.kill("SIGTERM");
    expect(await runner.exited).toBe(0);
  }, 60_000);
});
