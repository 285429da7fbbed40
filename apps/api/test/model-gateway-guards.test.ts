import { eq, leases } from "@fleet/db";
import { describe, expect, it } from "vitest";
import { call, operatorToken, testApi } from "./harness.ts";
import {
  CANARY_KEY,
  chat,
  expectSpend,
  type GatewayRun,
  gatewayRun,
  PRICES,
  priceOf,
  startStream,
  useModelVendor,
} from "./model-gateway-fixtures.ts";

const vendor = useModelVendor({ FLEET_MODEL_DEADLINE_MS: "3000" });

/** A streamed call the runner walks away from: after its first piece, or before the vendor answered. */
async function abandoned(run: GatewayRun, after: "first piece" | "headers pending") {
  const controller = new AbortController();
  const response = startStream(run, {}, controller.signal);
  if (after === "headers pending") {
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await response.catch(() => undefined);
    return;
  }
  const reader = (await response).body!.getReader();
  await reader.read();
  controller.abort();
  await reader.read().catch(() => undefined);
}

describe("the model gateway's guards", () => {
  it("charges a stream its runner walked away from, and gives its slot back", async () => {
    const run = await gatewayRun();
    const usage = { input: 4_000, output: 300 };
    vendor().script({
      kind: "answer",
      text: "a long answer in many parts",
      chunks: 8,
      chunkDelayMs: 60,
      usage,
    });
    await abandoned(run, "first piece");
    // The vendor's stream is read to its end all the same: its usage is charged.
    await expectSpend(run, priceOf(usage));

    // Eight calls left before the vendor answered: each slot comes back, so a ninth call is served.
    vendor().script(...Array.from({ length: 8 }, () => ({ kind: "answer" as const, delayMs: 400 })));
    await Promise.all(Array.from({ length: 8 }, () => abandoned(run, "headers pending")));
    await expect.poll(async () => (await chat(run)).status, { timeout: 10_000, interval: 500 }).toBe(200);
  });

  it("refuses a lease past its expiry that no acquire has swept yet, before the vendor sees it", async () => {
    const run = await gatewayRun();
    await (await testApi()).database.db
      .update(leases)
      .set({ expiresAt: Date.now() - 1_000 })
      .where(eq(leases.id, run.lease.lease_id));
    const before = vendor().calls.length;
    const lapsed = await chat(run);
    expect(lapsed.status, lapsed.text).toBe(409);
    expect(lapsed.body).toMatchObject({ error_code: "UZ-RUN-005", current_state: "expired" });
    expect(vendor().calls.length).toBe(before);
  });

  it("answers 502 for an unstreamed answer past 16 MiB, never reading it whole", async () => {
    const run = await gatewayRun();
    vendor().script({ kind: "answer", text: "x".repeat(17 * 1024 * 1024), usage: { input: 1, output: 1 } });
    const huge = await chat(run);
    expect(huge.status).toBe(502);
    expect(huge.body).toMatchObject({ error_code: "UZ-MODEL-002" });
    expect(huge.body.detail).toContain("16777216 bytes");
    expect((await chat(run)).status).toBe(200);
  });

  it("refuses tool arguments nested too deep to translate with 400, not a 500", async () => {
    const created = await call("POST", "/v1/admin/models", {
      token: await operatorToken(["model:write"]),
      body: { provider: "anthropic", model_id: "claude-haiku-4-5", context_cap_tokens: 200_000, ...PRICES },
    });
    expect(created.status, created.text).toBe(201);
    const run = await gatewayRun({ provider: "anthropic", model: "claude-haiku-4-5" });
    const deep = `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    const before = vendor().calls.length;
    const refused = await chat(run, {
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "deep", arguments: deep } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "done" },
      ],
    });
    expect(refused.status, refused.text.slice(0, 300)).toBe(400);
    expect(refused.body.error_code).toBe("UZ-MODEL-009");
    expect(refused.text).not.toContain(CANARY_KEY);
    expect(vendor().calls.length).toBe(before);
  });
});
