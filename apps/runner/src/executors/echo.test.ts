import type { ActivityFrame } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fakeGate, fakeLease, fakeSchedule } from "../../test/lease.ts";
import type { GateRequest, RunnerGate, ScheduleRequest } from "../api.ts";
import { LeaseLostError, type LeaseTools } from "../executor.ts";
import { ApiError, NetworkError } from "../http.ts";
import { actionIdFor, createEchoExecutor, parseDirectives } from "./echo.ts";

function recordingTools(overrides: Partial<LeaseTools> = {}) {
  const frames: ActivityFrame[] = [];
  const schedules: ScheduleRequest[] = [];
  const memories: Array<{ key: string; content: string }> = [];
  const gates: GateRequest[] = [];
  const waits: Array<{ gateId: string; waitMs: number }> = [];
  const tools: LeaseTools = {
    signal: new AbortController().signal,
    credentials: new Map(),
    model: { baseUrl: "http://127.0.0.1:9/model", fetch: async () => new Response("{}", { status: 503 }) },
    async publish(frame) {
      frames.push(frame);
    },
    async writeMemory(key, memory) {
      memories.push({ key, content: memory.content });
      return { key, content: memory.content, category: "general", created_at: 1, updated_at: 1 };
    },
    async createSchedule(schedule) {
      schedules.push(schedule);
      return fakeSchedule();
    },
    markGateRan: async (gateId) => ({ gate_id: gateId, action_ran_at: 1, first: true }),
    searchMemories: async () => ({ items: [] }),
    context: async () => ({ turns: [], tokens: 0, max_tokens: 8_000 }),
    async openGate(gate) {
      gates.push(gate);
      return fakeGate({ action_id: gate.action_id, proposed_action: gate.proposed_action });
    },
    async waitGate(gateId, waitMs) {
      waits.push({ gateId, waitMs });
      return fakeGate({
        status: "approved",
        outcome: "approved",
        resolved_by: "user:u1",
        approved_action: "x",
      });
    },
    ...overrides,
  };
  return { tools, frames, schedules, memories, gates, waits };
}

/** A gate answered `outcome` after `pendingWaits` waits that came back pending. */
function answeredAfter(
  pendingWaits: number,
  answer: Partial<RunnerGate>,
  waits: Array<{ gateId: string; waitMs: number }> = [],
) {
  return async (gateId: string, waitMs: number) => {
    waits.push({ gateId, waitMs });
    return waits.length <= pendingWaits
      ? fakeGate({ gate_id: gateId })
      : fakeGate({ gate_id: gateId, ...answer });
  };
}

describe("parseDirectives", () => {
  it("reads schedule lines: five fields, then once and tz= in any order, then the message", () => {
    expect(
      parseDirectives(
        [
          "Please:",
          "schedule: */5 * * * * Check the queue",
          "Schedule:  0 9 * * 1-5 once tz=Europe/Berlin  Standup reminder ",
          "schedule: 0 0 1 1 * tz=UTC once New year",
        ].join("\n"),
      ),
    ).toEqual([
      { kind: "schedule", schedule: { cron: "*/5 * * * *", message: "Check the queue" } },
      {
        kind: "schedule",
        schedule: { cron: "0 9 * * 1-5", message: "Standup reminder", once: true, timezone: "Europe/Berlin" },
      },
      { kind: "schedule", schedule: { cron: "0 0 1 1 *", message: "New year", once: true, timezone: "UTC" } },
    ]);
  });

  it("reads approve lines with the line they stand on", () => {
    expect(parseDirectives("Ship it?\nApprove:  deploy v2 to staging \napprove:")).toEqual([
      { kind: "approve", action: "deploy v2 to staging", line: 1 },
    ]);
  });

  it("reads remember lines, and ignores anything else", () => {
    expect(parseDirectives("remember: colour blue-green\nschedule: * * * *\nhello schedule: x")).toEqual([
      { kind: "remember", key: "colour", content: "blue-green" },
    ]);
  });
});

describe("actionIdFor", () => {
  it("is one UUID per event and line, the same on every run", () => {
    const event = "0190a000-0000-7000-8000-000000000004";
    const id = actionIdFor(event, 1, "deploy v2");
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(id[14]).toBe("5");
    expect(actionIdFor(event, 1, "deploy v2")).toBe(id);
    expect(actionIdFor(event, 2, "deploy v2")).not.toBe(id);
    expect(actionIdFor("0190a000-0000-7000-8000-000000000005", 1, "deploy v2")).not.toBe(id);
  });
});

describe("the echo executor", () => {
  it("answers Echo: <message> with a started, chunk, completed frame sequence", async () => {
    const { tools, frames } = recordingTools();
    const result = await createEchoExecutor().run(fakeLease({ message: "hello there" }), tools);
    expect(result).toMatchObject({ outcome: "processed", response_text: "Echo: hello there" });
    expect(frames.map((frame) => Object.keys(frame)[0])).toEqual([
      "tool_call_started",
      "fleet_response_chunk",
      "tool_call_completed",
    ]);
    expect(frames[0]).toEqual({ tool_call_started: { name: "echo", args_redacted: '{"chars":11}' } });
    expect(frames[1]).toEqual({ fleet_response_chunk: { text: "Echo: hello there" } });
  });

  it("publishes progress while it works slowly", async () => {
    const { tools, frames } = recordingTools();
    await createEchoExecutor({ delayMs: 1_200 }).run(fakeLease(), tools);
    expect(frames.filter((frame) => "tool_call_progress" in frame).length).toBeGreaterThanOrEqual(1);
  });

  it("creates the schedules and memories the message asks for, and says so", async () => {
    const { tools, schedules, memories, frames } = recordingTools();
    const message = "schedule: 0 9 * * * once Say good morning\nremember: mood cheerful";
    const result = await createEchoExecutor().run(fakeLease({ message }), tools);
    expect(schedules).toEqual([{ cron: "0 9 * * *", message: "Say good morning", once: true }]);
    expect(memories).toEqual([{ key: "mood", content: "cheerful" }]);
    expect(result.response_text).toBe(
      [
        `Echo: ${message}`,
        'Scheduled "Say good morning" at 0 9 * * * (UTC, once): 0190a000-0000-7000-8000-0000000000aa',
        "Remembered mood.",
      ].join("\n"),
    );
    expect(frames).toContainEqual({
      tool_call_started: {
        name: "schedules.create",
        args_redacted: '{"cron":"0 9 * * *","once":true,"timezone":"UTC"}',
      },
    });
  });

  it("answers a refused schedule in its reply, and lets a lost lease end the run", async () => {
    const refused = recordingTools({
      createSchedule: async () => {
        throw new ApiError(
          409,
          "UZ-SCHED-009",
          { detail: "The fleet already holds 16 schedules." },
          undefined,
        );
      },
    });
    const result = await createEchoExecutor().run(
      fakeLease({ message: "schedule: * * * * * ping" }),
      refused.tools,
    );
    expect(result.response_text).toContain(
      'Could not schedule "ping" (UZ-SCHED-009: The fleet already holds 16',
    );

    const lost = recordingTools({
      createSchedule: async () => {
        throw new LeaseLostError("x");
      },
    });
    await expect(
      createEchoExecutor().run(fakeLease({ message: "schedule: * * * * * ping" }), lost.tools),
    ).rejects.toBeInstanceOf(LeaseLostError);
  });

  it("reads a payload that is not a message as its text", async () => {
    const { tools } = recordingTools();
    const lease = fakeLease();
    lease.event.request_json = "plain text";
    expect((await createEchoExecutor().run(lease, tools)).response_text).toBe("Echo: plain text");
  });

  it("opens a gate for an approve line, waits until it is answered, and answers the approved action", async () => {
    const waits: Array<{ gateId: string; waitMs: number }> = [];
    const { tools, gates, frames } = recordingTools({
      waitGate: answeredAfter(
        2,
        {
          status: "approved",
          outcome: "approved",
          resolved_by: "api_key:k1",
          approved_action: "deploy v2 to staging",
        },
        waits,
      ),
    });
    const message = "Ship it\napprove: deploy v2";
    const lease = fakeLease({ message });
    const result = await createEchoExecutor().run(lease, tools);
    expect(result).toMatchObject({
      outcome: "processed",
      response_text: `Echo: ${message}\nApproved by api_key:k1: deploy v2 to staging`,
    });
    expect(gates).toEqual([
      {
        action_id: actionIdFor(lease.event_id, 1, "deploy v2"),
        tool_name: "echo",
        action_name: "deploy",
        gate_kind: "approval",
        proposed_action: "deploy v2",
        evidence: { message },
        blast_radius: "none (demo)",
        detail: expect.stringContaining("echo demo"),
      },
    ]);
    expect(waits).toHaveLength(3);
    expect(waits.every((wait) => wait.waitMs > 0 && wait.waitMs <= 30_000)).toBe(true);
    expect(frames).toContainEqual({
      tool_call_started: { name: "approvals.request", args_redacted: '{"action_name":"deploy"}' },
    });
    expect(frames.filter((frame) => "tool_call_progress" in frame)).toHaveLength(2);
  });

  it("names an action without a plain first word `action`", async () => {
    const { tools, gates } = recordingTools();
    await createEchoExecutor().run(fakeLease({ message: "approve: «rm» everything" }), tools);
    expect(gates[0]).toMatchObject({ action_name: "action", proposed_action: "«rm» everything" });
  });

  it("reports a denied approval as fleet_error with the gate's label, and stops there", async () => {
    const { tools, memories } = recordingTools({
      waitGate: answeredAfter(0, {
        status: "denied",
        outcome: "denied",
        resolved_by: "user:u7",
        reason: "not on a Friday",
        failure_label: "approval_denied",
      }),
    });
    const result = await createEchoExecutor().run(
      fakeLease({ message: "approve: deploy v2\nremember: deployed yes" }),
      tools,
    );
    expect(result).toMatchObject({
      outcome: "fleet_error",
      failure_label: "approval_denied",
      failure_detail: 'The approval of "deploy v2" was denied by user:u7: not on a Friday',
    });
    expect(memories).toEqual([]);
  });

  it("reports a timed-out or withdrawn approval with its own label", async () => {
    for (const [outcome, label, detail] of [
      ["timed_out", "approval_timed_out", "timed out"],
      ["auto_killed", "approval_auto_killed", "the fleet was stopped"],
    ] as const) {
      const { tools } = recordingTools({
        waitGate: answeredAfter(1, {
          status: outcome,
          outcome,
          resolved_by: "system:x",
          failure_label: label,
        }),
      });
      const result = await createEchoExecutor().run(fakeLease({ message: "approve: deploy" }), tools);
      expect(result).toMatchObject({ outcome: "fleet_error", failure_label: label });
      expect(result.failure_detail).toContain(detail);
    }
  });

  it("finds an answered gate at once when it opens it again (a reclaimed run)", async () => {
    const { tools, waits } = recordingTools({
      openGate: async () =>
        fakeGate({
          status: "approved",
          outcome: "approved",
          resolved_by: "user:u1",
          approved_action: "deploy",
        }),
    });
    const result = await createEchoExecutor().run(fakeLease({ message: "approve: deploy" }), tools);
    expect(result.response_text).toBe("Echo: approve: deploy\nApproved by user:u1: deploy");
    expect(waits).toEqual([]);
  });

  it("keeps waiting through an unreachable service, and lets a lost lease end the wait", async () => {
    let calls = 0;
    const flaky = recordingTools({
      waitGate: async () => {
        calls++;
        if (calls === 1) throw new NetworkError("GET gates failed: ECONNRESET", false);
        return fakeGate({
          status: "approved",
          outcome: "approved",
          resolved_by: "user:u1",
          approved_action: "go",
        });
      },
    });
    expect(
      (await createEchoExecutor().run(fakeLease({ message: "approve: go" }), flaky.tools)).response_text,
    ).toBe("Echo: approve: go\nApproved by user:u1: go");
    expect(calls).toBe(2);

    const lost = recordingTools({
      waitGate: async () => {
        throw new LeaseLostError("x");
      },
    });
    await expect(
      createEchoExecutor().run(fakeLease({ message: "approve: go" }), lost.tools),
    ).rejects.toBeInstanceOf(LeaseLostError);
  });

  it("reports a gate the service refuses to open as fleet_error approval_unavailable", async () => {
    const { tools } = recordingTools({
      openGate: async () => {
        throw new ApiError(409, "UZ-FLEET-003", { detail: "The fleet is stopped." }, undefined);
      },
    });
    const result = await createEchoExecutor().run(fakeLease({ message: "approve: go" }), tools);
    expect(result).toMatchObject({
      outcome: "fleet_error",
      failure_label: "approval_unavailable",
      failure_detail: 'Could not ask for approval of "go" (UZ-FLEET-003: The fleet is stopped.)',
    });
  });
});
