import { describe, expect, it } from "vitest";
import { ScheduleEngine } from "./schedule-engine.ts";

// previewSchedule is pure arithmetic over the same cron reading the fires use: no database is opened.
const engine = new ScheduleEngine(
  { kind: "postgres", url: "postgres://unused@127.0.0.1:1/none" },
  { deadlineMs: 1000, onFire: async () => {}, onError: () => {} },
);

function nextAfter(cron: string, timezone: string, from: string): string | null {
  const next = engine.nextFire(cron, timezone, new Date(from));
  return next === null ? null : new Date(next).toISOString();
}

describe("when schedules fire across daylight-saving changes (the README's statement)", () => {
  it("fires a wall-clock time in the spring-forward gap once, shifted forward by the gap", () => {
    // 2027-03-28 02:00 Paris jumps to 03:00: 02:30 does not exist that day.
    expect(nextAfter("30 2 * * *", "Europe/Paris", "2027-03-27T12:00:00Z")).toBe("2027-03-28T01:30:00.000Z");
    expect(nextAfter("30 2 * * *", "Europe/Paris", "2027-03-28T01:30:00Z")).toBe("2027-03-29T00:30:00.000Z");
  });

  it("fires a wall-clock time that repeats in the fall-back hour once, at its first occurrence", () => {
    // 2026-10-25 03:00 Paris falls back to 02:00: 02:30 happens twice (00:30 and 01:30 UTC).
    expect(nextAfter("30 2 * * *", "Europe/Paris", "2026-10-24T12:00:00Z")).toBe("2026-10-25T00:30:00.000Z");
    expect(nextAfter("30 2 * * *", "Europe/Paris", "2026-10-25T00:30:00Z")).toBe("2026-10-26T01:30:00.000Z");
  });

  it("reads the expression in its zone", () => {
    expect(nextAfter("0 9 * * 1", "America/New_York", "2026-11-20T00:00:00Z")).toBe(
      "2026-11-23T14:00:00.000Z",
    );
    expect(nextAfter("0 9 * * *", "UTC", "2026-11-20T09:00:00Z")).toBe("2026-11-21T09:00:00.000Z");
  });
});
