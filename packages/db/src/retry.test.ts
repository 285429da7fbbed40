import { describe, expect, it } from "vitest";
import { connectionLost, readOnly, retryLost } from "./retry.ts";

describe("retrying a statement after a lost connection", () => {
  it("counts only plain reads as safe to run twice", () => {
    expect(readOnly('select "id" from "api_keys" where "hash" = $1')).toBe(true);
    expect(readOnly("  SELECT 1")).toBe(true);
    for (const text of [
      'insert into "fleets" values ($1)',
      "with swept as (update approval_gates set status = 'expired') select id from swept",
      "select pg_notify($1, '')",
      "select pg_advisory_lock(1)",
      'select * from "leases" where id = $1 for update',
    ])
      expect(readOnly(text), text).toBe(false);
  });

  it("retries a lost connection as many times as allowed, and nothing else", async () => {
    const lost = Object.assign(new Error("reset"), { code: "ECONNRESET" });
    expect(connectionLost(lost)).toBe(true);
    expect(connectionLost(Object.assign(new Error("unique"), { code: "23505" }))).toBe(false);
    let calls = 0;
    await expect(
      retryLost(async () => {
        if (++calls < 3) throw lost;
        return "ok";
      }, 5),
    ).resolves.toBe("ok");
    calls = 0;
    await expect(
      retryLost(async () => {
        calls++;
        throw lost;
      }, 2),
    ).rejects.toBe(lost);
    expect(calls).toBe(3);
  });
});
