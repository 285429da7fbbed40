import { describe, expect, it } from "vitest";
import { cronProblem, cronSentence } from "./cron.ts";

describe("cronProblem", () => {
  it("names the field and the values it takes, not the field count, for a value out of range", () => {
    expect(cronProblem("61 * * * *")).toBe('minute must be 0–59, not "61"');
    expect(cronProblem("0 24 * * *")).toBe('hour must be 0–23, not "24"');
    expect(cronProblem("0 0 0 * *")).toBe('day of month must be 1–31, not "0"');
    expect(cronProblem("0 0 32 * *")).toBe('day of month must be 1–31, not "32"');
    expect(cronProblem("0 0 * 13 *")).toBe('month must be 1–12 or JAN–DEC, not "13"');
    expect(cronProblem("0 0 * * 8")).toBe('day of week must be 0–7 or SUN–SAT, not "8"');
    expect(cronProblem("0 0 * * 1-9")).toBe('day of week must be 0–7 or SUN–SAT, not "9"');
    expect(cronSentence(cronProblem("61 * * * *")!)).toBe('Cron minute must be 0–59, not "61".');
  });

  it("says the field count only when the count is wrong", () => {
    expect(cronProblem("0 9 * *")).toBe("must be five fields: minute hour day-of-month month day-of-week");
    expect(cronProblem("")).toMatch(/^must be five fields/);
    expect(cronProblem("0 0 * * * *")).toMatch(/^must be five fields/);
  });

  it("names steps, ranges and items it cannot read", () => {
    expect(cronProblem("*/0 * * * *")).toBe('minute step must be 1–59, not "0"');
    expect(cronProblem("0 5-2 * * *")).toBe('hour range "5-2" must not start after it ends');
    expect(cronProblem("0 1-2-3 * * *")).toBe('hour range "1-2-3" must be two values a-b');
    expect(cronProblem("0 0 * * MON,")).toMatch(/^day of week "" must be \*/);
  });

  it("takes valid expressions at the edges of every range", () => {
    for (const ok of ["59 23 31 12 7", "0 0 1 1 0", "*/15 9-17 * JAN-DEC MON-FRI", "0 0 1,15 * SUN"]) {
      expect(cronProblem(ok)).toBeNull();
    }
  });
});
