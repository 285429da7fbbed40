import { describe, expect, it } from "vitest";
import { fakeGate, fakeLease } from "../../../test/lease.ts";
import type { GateRequest, RunnerGate } from "../../api.ts";
import type { LeaseTools } from "../../executor.ts";
import { ApiError } from "../../http.ts";
import { gated, toolActionId, toolGateRequest } from "./gate.ts";

/** Tools whose gate is answered `answer` at once; `opened` records the requests. */
function answering(answer: Partial<RunnerGate> | Error, ranAt: number | null = null) {
  const opened: GateRequest[] = [];
  const tools = {
    signal: new AbortController().signal,
    openGate: async (request: GateRequest) => {
      opened.push(request);
      if (answer instanceof Error) throw answer;
      return fakeGate({ action_id: request.action_id, status: "approved", ...answer });
    },
    waitGate: async () => fakeGate(),
    // ranAt: an earlier lease already started the action then.
    markGateRan: async (gateId: string) => ({
      gate_id: gateId,
      action_ran_at: ranAt ?? 5,
      first: ranAt === null,
    }),
  } as unknown as LeaseTools;
  return { tools, opened };
}

const lease = fakeLease();
const call = { callId: "call_1", name: "http_request", args: { url: "https://example.com/deploy" } };
const request = toolGateRequest(lease, call, "  I will deploy.  ");

describe("a gated tool call", () => {
  it("asks with the call as the proposed action, the step's text as evidence, an action id stable per call", () => {
    expect(request).toMatchObject({
      action_id: toolActionId(lease.event_id, "call_1"),
      tool_name: "http_request",
      proposed_action: 'http_request {"url":"https://example.com/deploy"}',
      evidence: { call_id: "call_1", model_text: "I will deploy." },
    });
    expect(toolActionId(lease.event_id, "call_1")).toBe(request.action_id);
    expect(toolActionId(lease.event_id, "call_2")).not.toBe(request.action_id);
    expect(toolActionId("0190a000-0000-7000-8000-0000000000ff", "call_1")).not.toBe(request.action_id);
    expect(request.action_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(toolGateRequest(lease, call, " ").evidence).toEqual({ call_id: "call_1" });
  });

  it("runs the tool once approved", async () => {
    const { tools } = answering({ outcome: "approved", resolved_by: "user:ann" });
    let ran = 0;
    const outcome = await gated(tools, request, async () => {
      ran++;
      return { status: "ok", output: "HTTP 200" };
    });
    expect(outcome).toEqual({ status: "ok", output: "HTTP 200" });
    expect(ran).toBe(1);
  });

  const notRun: [string, Partial<RunnerGate> | Error, string][] = [
    [
      "timed out",
      { status: "timed_out", outcome: "timed_out" },
      "Nobody answered the approval of this http_request call in time. The tool did not run.",
    ],
    [
      "approved with a change naming another tool",
      { outcome: "approved", amended_action: "memory_write {}", approved_action: "memory_write {}" },
      "The approver changed this http_request call, but the change cannot be applied (it does not name http_request), so the tool did not run.",
    ],
    [
      "refused by the service",
      new ApiError(400, "UZ-REQ-001", { detail: "evidence is too big" }, undefined),
      "Could not ask for approval of this http_request call (UZ-REQ-001: evidence is too big). The tool did not run.",
    ],
  ];
  for (const [what, answer, told] of notRun)
    it(`does not run the tool when the gate is ${what}, and says so`, async () => {
      const { tools, opened } = answering(answer);
      let ran = 0;
      const outcome = await gated(tools, request, async () => {
        ran++;
        return { status: "ok", output: "ran" };
      });
      expect(opened).toHaveLength(1);
      expect(ran).toBe(0);
      expect(outcome.output).toBe(told);
      expect(outcome.status).toBe(
        answer instanceof Error ? "error" : answer.outcome === "approved" ? "refused" : "denied",
      );
    });

  it("runs an approved change with the approver's arguments", async () => {
    const { tools } = answering({
      outcome: "approved",
      amended_action: 'http_request {"url":"https://example.com/staging"}',
    });
    const runs: unknown[] = [];
    const outcome = await gated(tools, request, async (amended) => {
      runs.push(amended);
      return { status: "ok", output: "HTTP 200" };
    });
    expect(outcome).toEqual({ status: "ok", output: "HTTP 200" });
    expect(runs).toEqual([{ url: "https://example.com/staging" }]);
  });

  it("does not run an approved action an earlier lease of the event already started", async () => {
    const { tools } = answering({ outcome: "approved" }, Date.UTC(2026, 0, 2));
    let ran = 0;
    const outcome = await gated(tools, request, async () => {
      ran++;
      return { status: "ok", output: "ran" };
    });
    expect(ran).toBe(0);
    expect(outcome).toEqual({
      status: "refused",
      output:
        "This approved http_request call already ran in an earlier attempt of this run (started 2026-01-02T00:00:00.000Z); it was not run again, and its result is not known here.",
    });
  });

  it("carries the definition's blast radius, the tool's gate kind and its argument schema", () => {
    const withRadius = fakeLease({
      fleet: { ...lease.fleet, tool_blast_radius: { http_request: "Production deploys" } },
    });
    const schema = { type: "object", properties: { url: { type: "string" } } };
    expect(toolGateRequest(withRadius, call, "", schema)).toMatchObject({
      gate_kind: "tool.http_request",
      blast_radius: "Production deploys",
      action_schema: schema,
    });
    expect(toolGateRequest(lease, call, "").blast_radius).toBe(
      "Whatever http_request does with these arguments.",
    );
  });
});
