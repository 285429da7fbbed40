import { describe, expect, it } from "vitest";
import { apiLogs, CANARY_KEY, chat, gatewayRun, useModelVendor } from "./model-gateway-fixtures.ts";

// A short vendor deadline, so a hanging vendor times out within the test.
const vendor = useModelVendor({ FLEET_MODEL_DEADLINE_MS: "700" });

describe("the model gateway's failures are problems, never 500s", () => {
  it("maps a vendor 429 to 429 UZ-MODEL-004 with its Retry-After", async () => {
    const run = await gatewayRun();
    vendor().script({ kind: "status", status: 429, retryAfter: "7" });
    const limited = await chat(run);
    expect(limited.status, limited.text).toBe(429);
    expect(limited.body.error_code).toBe("UZ-MODEL-004");
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(limited.headers.get("content-type")).toContain("application/problem+json");
  });

  it("maps a vendor 5xx to 502 UZ-MODEL-002", async () => {
    const run = await gatewayRun();
    for (const status of [500, 503]) {
      vendor().script({ kind: "status", status });
      const failed = await chat(run);
      expect(failed.status, failed.text).toBe(502);
      expect(failed.body.error_code).toBe("UZ-MODEL-002");
    }
  });

  it("passes a vendor 400's message on as 400 UZ-MODEL-006", async () => {
    const run = await gatewayRun();
    vendor().script({ kind: "status", status: 400, message: `messages[0] is odd near ${CANARY_KEY}` });
    const refused = await chat(run);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error_code).toBe("UZ-MODEL-006");
    expect(refused.body.detail).toContain("messages[0] is odd");
    expect(refused.text).not.toContain(CANARY_KEY);
  });

  it("tells the operator to fix the provider settings when the vendor refuses the key", async () => {
    const run = await gatewayRun({ api_key: "sk-not-the-vendors-key" });
    const refused = await chat(run);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error_code).toBe("UZ-MODEL-005");
    expect(refused.body.detail).toContain("provider settings");
    expect(refused.text).not.toContain("sk-not-the-vendors-key");
  });

  it("maps an answer the vendor breaks off half-way to 502 UZ-MODEL-002", async () => {
    const run = await gatewayRun();
    vendor().script({ kind: "break", afterChunks: 1 });
    const broken = await chat(run);
    expect(broken.status, broken.text).toBe(502);
    expect(broken.body.error_code).toBe("UZ-MODEL-002");
  });

  it("maps a vendor that never answers to 504 UZ-MODEL-003", async () => {
    const run = await gatewayRun();
    vendor().script({ kind: "hang" });
    const slow = await chat(run);
    expect(slow.status, slow.text).toBe(504);
    expect(slow.body.error_code).toBe("UZ-MODEL-003");
  });

  it("caps a lease at 8 calls open at once: 50 at once get 200 or 429 UZ-MODEL-007", async () => {
    const run = await gatewayRun();
    const before = vendor().calls.length;
    vendor().script(...Array.from({ length: 50 }, () => ({ kind: "answer" as const, delayMs: 300 })));
    const answers = await Promise.all(Array.from({ length: 50 }, () => chat(run)));
    const ok = answers.filter((a) => a.status === 200);
    const capped = answers.filter((a) => a.status === 429);
    expect(ok.length + capped.length, answers.map((a) => a.status).join(",")).toBe(50);
    expect(ok.length).toBeGreaterThanOrEqual(8);
    expect(capped.length).toBeGreaterThan(0);
    for (const answer of capped) expect(answer.body.error_code).toBe("UZ-MODEL-007");
    expect(vendor().calls.length - before).toBe(ok.length);
    // The slots come back: the next call goes through.
    vendor().script({ kind: "answer" });
    expect((await chat(run)).status).toBe(200);
  });

  it("maps a vendor that cannot be reached to 502 UZ-MODEL-002, the key in no log", async () => {
    const run = await gatewayRun();
    await vendor().close();
    const gone = await chat(run);
    expect(gone.status, gone.text).toBe(502);
    expect(gone.body.error_code).toBe("UZ-MODEL-002");
    expect(await apiLogs()).not.toContain(CANARY_KEY);
  });
});
