import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatRelative, relativeWords } from "./relative-words.ts";

const intl = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const units = ["year", "month", "week", "day", "hour", "minute"] as const;

describe("relativeWords", () => {
  it("says what Intl.RelativeTimeFormat says in English, for every unit and count either way", () => {
    const counts = [0, 1, 2, 3, 7, 11, 12, 21, 59, 100, 999, 1_000, 1_234, 12_345, 1_234_567];
    for (const unit of units) {
      for (const count of [...counts, ...counts.map((count) => -count)]) {
        assert.equal(relativeWords(count, unit), intl.format(count, unit), `${count} ${unit}`);
      }
    }
  });
});

describe("formatRelative", () => {
  const now = Date.UTC(2026, 10, 27, 12, 0, 0);
  const minute = 60_000;
  const day = 86_400_000;

  it("reads a moment either way of now as just now, and a clock a little ahead too", () => {
    assert.equal(formatRelative(now, now), "just now");
    assert.equal(formatRelative(now - 44_000, now), "just now");
    assert.equal(formatRelative(now + 4 * minute, now), "just now");
  });

  it("picks the largest whole unit", () => {
    assert.equal(formatRelative(now - 46_000, now), "1 minute ago");
    assert.equal(formatRelative(now - 3 * minute, now), "3 minutes ago");
    assert.equal(formatRelative(now - 130 * minute, now), "2 hours ago");
    assert.equal(formatRelative(now - day, now), "yesterday");
    assert.equal(formatRelative(now + 2 * day, now), "in 2 days");
    assert.equal(formatRelative(now - 8 * day, now), "last week");
    assert.equal(formatRelative(now - 400 * day, now), "last year");
    assert.equal(formatRelative(now + 10 * minute, now), "in 10 minutes");
  });
});
