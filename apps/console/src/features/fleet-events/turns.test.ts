import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TURNS, turnIds } from "./turns.ts";

const id = (n: number) => `01a20000-0000-7000-8000-${String(n).padStart(12, "0")}`;

describe("turnIds", () => {
  it("shows the newest turns of a list that pages newest first, oldest first", () => {
    const newestFirst = Array.from({ length: 25 }, (_, n) => id(25 - n));
    assert.deepEqual(
      turnIds(newestFirst),
      Array.from({ length: TURNS }, (_, n) => id(25 - TURNS + 1 + n)),
    );
  });

  it("adds a run in flight the list has not seen, keeping the newest TURNS", () => {
    const newestFirst = Array.from({ length: TURNS }, (_, n) => id(TURNS - n));
    const shown = turnIds(newestFirst, [id(99), id(TURNS)]);
    assert.equal(shown.length, TURNS);
    assert.equal(shown.at(-1), id(99));
    assert.equal(shown[0], id(2));
  });
});
