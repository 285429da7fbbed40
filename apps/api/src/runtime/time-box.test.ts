import { describe, expect, it } from "vitest";
import { OUT_OF_TIME, timeBoxed } from "./time-box.ts";

describe("timeBoxed", () => {
  it("answers the task's value, and its exception propagates", () => {
    expect(timeBoxed(() => 6 * 7, 100)).toBe(42);
    expect(() =>
      timeBoxed(() => {
        throw new RangeError("too deep");
      }, 100),
    ).toThrow(RangeError);
  });

  it("stops a catastrophically backtracking regular expression", () => {
    const pattern = /^(a+)+$/;
    const subject = `${"a".repeat(64)}!`;
    expect(timeBoxed(() => pattern.test(subject), 20)).toBe(OUT_OF_TIME);
    // The context is usable again after a stopped task.
    expect(timeBoxed(() => pattern.test("aaa"), 100)).toBe(true);
  });
});
