import { describe, expect, it } from "vitest";
import { newId, RequestIds } from "./ids.ts";

describe("newId", () => {
  it("mints UUIDv7s carrying the time, in order within a millisecond", () => {
    const now = Date.UTC(2026, 10, 21);
    const ids = Array.from({ length: 1000 }, () => newId(now));
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(ids[0]!.replace(/-/g, "").slice(0, 12), 16)).toBeGreaterThanOrEqual(now);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("RequestIds", () => {
  it("mints UUIDv7s in order and unique, past 4,096 in one millisecond, with the clock going back", () => {
    const now = Date.UTC(2026, 10, 22);
    const minter = new RequestIds();
    const ids = [
      ...Array.from({ length: 5000 }, () => minter.mint(now)),
      ...Array.from({ length: 10 }, () => minter.mint(now - 5)),
      ...Array.from({ length: 10 }, () => minter.mint(now + 10)),
    ];
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(ids[0]!.replace(/-/g, "").slice(0, 12), 16)).toBe(now);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
