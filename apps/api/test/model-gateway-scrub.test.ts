import { beforeAll, describe, expect, it } from "vitest";
import { call, operatorToken } from "./harness.ts";
import {
  CANARY_KEY,
  type GatewayRun,
  gatewayRun,
  PRICES,
  secretRun,
  streamCall,
  useModelVendor,
} from "./model-gateway-fixtures.ts";
import { chunkTexts, fleetStream, type OpenedStream, openTail } from "./stream-fixtures.ts";

/**
 * What the gateway relays and publishes never carries the provider key or a delivered secret, however
 * the vendor's bytes are cut: a key split between two network reads (the OpenAI relay, the Anthropic
 * translation, the live tail), and a secret with whitespace inside split between two chunk frames.
 */
const vendor = useModelVendor();
const CLAUDE = "claude-sonnet-4-5";

beforeAll(async () => {
  const created = await call("POST", "/v1/admin/models", {
    token: await operatorToken(["model:write"]),
    body: { provider: "anthropic", model_id: CLAUDE, context_cap_tokens: 200_000, ...PRICES },
  });
  expect(created.status, created.text).toBe(201);
});

/** The run's chunk frames once their text adds up to `expected`'s length (fails after 10 s). */
async function framesUntil(stream: OpenedStream, expected: string): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  while (chunkTexts(stream).join("").length < expected.length && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return chunkTexts(stream) as string[];
}

describe("the provider key, cut between two network reads", () => {
  for (const provider of ["openai", "anthropic"] as const) {
    it(`is scrubbed from the ${provider} stream and from the live tail`, async () => {
      const run: GatewayRun =
        provider === "openai" ? await gatewayRun() : await gatewayRun({ provider, model: CLAUDE });
      const tail = await openTail(fleetStream(run.tenant, run.fleetId, "?kinds=chunk"), run.tenant.apiKey);
      try {
        const text = `The key you gave me is ${CANARY_KEY} and that is all.`;
        // One delta carries the whole key; the vendor's bytes are cut in its middle, 20 ms apart.
        vendor().script({ kind: "answer", text, chunks: 1, splitWithin: CANARY_KEY });
        const { response, text: relayed, data } = await streamCall(run);
        expect(response.status).toBe(200);
        expect(relayed).not.toContain(CANARY_KEY);
        expect(relayed).not.toContain(CANARY_KEY.slice(0, CANARY_KEY.length / 2 + 1));
        expect(relayed).toContain("[redacted]");
        expect(data.at(-1)).toBe("[DONE]");
        const published = text.replace(CANARY_KEY, "[redacted]");
        expect((await framesUntil(tail, published)).join("")).toBe(published);
        expect(JSON.stringify(tail.frames)).not.toContain(CANARY_KEY);
      } finally {
        tail.close();
      }
    });
  }
});

describe("a delivered secret with whitespace inside, cut between two chunk frames", () => {
  it("is masked whole on the live tail: never shown, nor in parts that join up", async () => {
    const SECRET = `correct horse battery staple ${Date.now()}`;
    const run = await secretRun("PASSPHRASE", SECRET);
    const delivered = await call("POST", `/v1/runners/me/leases/${run.lease.lease_id}/credentials`, {
      token: run.runner.token,
      body: { fencing_token: run.lease.fencing_token },
    });
    expect(delivered.status, delivered.text).toBe(200);
    const tail = run.stream;
    try {
      const words = (from: number) => Array.from({ length: 40 }, (_, i) => `w${from + i}`).join(" ");
      const text = `${words(0)} the passphrase is ${SECRET} and ${words(40)}.`;
      // Pieces 70 ms apart: each would be its own frame, and the secret's words fall in two of them.
      vendor().script({ kind: "answer", text, chunks: 24, chunkDelayMs: 70 });
      const { response } = await streamCall(run);
      expect(response.status).toBe(200);
      const published = text.replace(SECRET, "[secret:PASSPHRASE]");
      const frames = await framesUntil(tail, published);
      expect(frames.length).toBeGreaterThan(1);
      expect(frames.join("")).toBe(published);
      // No part of the secret's words in any frame, so none join up in the console.
      for (const part of SECRET.split(" ")) expect(frames.join("")).not.toContain(part);
    } finally {
      tail.close();
    }
  });
});
