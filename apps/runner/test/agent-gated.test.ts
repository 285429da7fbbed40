import type { OutputOf } from "@fleet/contracts";
import type { approveApproval } from "@fleet/contracts/approvals/approve-approval";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  approveGate,
  completions,
  denyGate,
  messagesOf,
  pendingGate,
  useAgentWorld,
} from "./agent-fixtures.ts";
import {
  api,
  type Fleet,
  installFleet,
  live,
  message,
  processed,
  type RunnerProcess,
  startRunner,
} from "./harness.ts";

/**
 * Tools marked `approval: required`: the agent executor opens a gate before the call, against a real API
 * whose provider is the fake model world.vendor, a local HTTP service playing the outside world.
 */
const world = useAgentWorld();

describe("a tool marked approval: required", () => {
  let fleet: Fleet;
  let runner: RunnerProcess;

  beforeAll(async () => {
    fleet = await installFleet({
      requires: [
        "tools:",
        "  - name: http_request",
        "    approval: required",
        "  - memory_write",
        "network_hosts: [127.0.0.1]",
      ],
      instructions: "You are the deploy helper.",
    });
    runner = startRunner("gated-host", fleet, { FLEET_RUNNER_EXECUTOR: "agent" });
  });
  afterAll(async () => {
    runner.child.kill("SIGTERM");
    expect(await runner.exited).toBe(0);
  });

  /** The model says why, then calls http_request at `path`; the next answer ends the run. */
  function scriptDeploy(path: string, callId: string): string {
    const url = `http://127.0.0.1:${world.service.port}${path}`;
    world.vendor.script(
      {
        kind: "answer",
        text: "I will trigger the deploy.",
        toolCalls: [{ id: callId, name: "http_request", arguments: JSON.stringify({ method: "POST", url }) }],
      },
      { kind: "answer", text: "Done." },
    );
    return url;
  }

  it("runs the tool once the gate is approved, the call and the model's text in the gate", async () => {
    const url = scriptDeploy("/deploy-approved", "call_deploy_ok");
    const eventId = await message(fleet, "Deploy, please.");
    const gate = await pendingGate(fleet);
    expect(gate).toMatchObject({
      tool_name: "http_request",
      action_name: "http_request",
      gate_kind: "tool.http_request",
      evidence: { call_id: "call_deploy_ok", model_text: "I will trigger the deploy." },
    });
    expect(gate.proposed_action).toBe(`http_request ${JSON.stringify({ method: "POST", url })}`);
    // Nothing is sent while the gate waits.
    expect(world.service.requests.some((request) => request.path === "/deploy-approved")).toBe(false);

    const approved = await approveGate(gate.gate_id);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await processed(fleet, eventId)).toMatchObject({ status: "processed", response_text: "Done." });
    expect(world.service.requests.filter((request) => request.path === "/deploy-approved")).toEqual([
      expect.objectContaining({ method: "POST" }),
    ]);
  }, 60_000);

  it("does not run the tool when the gate is denied, and the model is told why and continues", async () => {
    scriptDeploy("/deploy-denied", "call_deploy_no");
    const from = world.vendor.calls.length;
    const eventId = await message(fleet, "Deploy again.");
    const gate = await pendingGate(fleet);
    const denied = await denyGate(gate.gate_id, "freeze until Monday");
    expect(denied.status, JSON.stringify(denied.body)).toBe(200);
    expect(await processed(fleet, eventId)).toMatchObject({ status: "processed", response_text: "Done." });
    expect(world.service.requests.some((request) => request.path === "/deploy-denied")).toBe(false);

    const calls = completions(world.vendor, from);
    expect(calls).toHaveLength(2);
    const result = messagesOf(calls[1]!).find((item) => item.role === "tool");
    expect(result).toMatchObject({ tool_call_id: "call_deploy_no" });
    expect(String(result!.content)).toContain(
      `The approval of this http_request call was denied by ${denied.body.resolved_by}: freeze until Monday. The tool did not run.`,
    );
  }, 60_000);

  it("runs the approver's edited call, an edit that does not fit refused when it is made", async () => {
    scriptDeploy("/deploy-prod", "call_deploy_edit");
    const eventId = await message(fleet, "Deploy to prod.");
    const gate = await pendingGate(fleet);
    expect(gate.gate_kind).toBe("tool.http_request");
    const path = `/v1/workspaces/${live.tenant.workspace_id}/approvals/${gate.gate_id}/approve`;
    const misfit = await api("POST", path, live.tenant.api_key, {
      amended_action: `http_request ${JSON.stringify({ method: "BREW", url: "http://127.0.0.1/x" })}`,
    });
    expect(misfit.status, JSON.stringify(misfit.body)).toBe(400);
    expect(misfit.body).toMatchObject({ error_code: "UZ-APPROVAL-002" });
    expect(String(misfit.body.detail)).toContain("arguments.method");
    // Still pending: the fitting edit is taken.
    const staging = `http://127.0.0.1:${world.service.port}/deploy-staging`;
    const approved = await api<OutputOf<typeof approveApproval>>("POST", path, live.tenant.api_key, {
      amended_action: `http_request ${JSON.stringify({ method: "PUT", url: staging })}`,
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await processed(fleet, eventId)).toMatchObject({ status: "processed", response_text: "Done." });
    expect(world.service.requests.some((request) => request.path === "/deploy-prod")).toBe(false);
    expect(world.service.requests.filter((request) => request.path === "/deploy-staging")).toEqual([
      expect.objectContaining({ method: "PUT" }),
    ]);
  }, 60_000);
});
