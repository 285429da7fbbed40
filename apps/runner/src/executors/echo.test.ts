import type { ActivityFrame } from "@fleet/contracts";
import { describe, expect, it } from "vitest";
import { fakeLease, fakeSchedule } from "../../test/lease.ts";
import type { ScheduleRequest } from "../api.ts";
import { LeaseLostError, type LeaseTools } from "../executor.ts";
import { ApiError } from "../http.ts";
import { createEchoExecutor, parseDirectives } from "./echo.ts";

function recordingTools(overrides: Partial<LeaseTools> = {}) {
  const frames: ActivityFrame[] = [];
  const schedules: ScheduleRequest[] = [];
  const memories: Array<{ key: string; content: string }> = [];
  const tools: LeaseTools = {
    signal: new AbortController().signal,
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
    ...overrides,
  };
  return { tools, frames, schedules, memories };
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

  it("reads remember lines, and ignores anything else", () => {
    expect(parseDirectives("remember: colour blue-green\nschedule: * * * *\nhello schedule: x")).toEqual([
      { kind: "remember", key: "colour", content: "blue-green" },
    ]);
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
});
