import { describe, expect, it } from "vitest";
import {
  CANARY_KEY,
  chat,
  expectNothingCharged,
  expectSpend,
  gatewayRun,
  MODEL,
  priceOf,
  streamCall,
  useModelVendor,
  usePlatformDefault,
} from "./model-gateway-fixtures.ts";

const vendor = useModelVendor({ FLEET_MODEL_DEADLINE_MS: "1500" });

const stream = streamCall;

describe("the model gateway, streamed", () => {
  it("relays the vendor's chunks as they come, asks for usage, and charges it once at the end", async () => {
    const run = await gatewayRun();
    const usage = { input: 900, output: 120, cached: 300 };
    vendor().script({ kind: "answer", text: "one two three four", chunks: 4, chunkDelayMs: 150, usage });
    const before = vendor().calls.length;
    const { response, pieces, text, data } = await stream(run);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    // Relayed in pieces, as the vendor sent them, not buffered whole.
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.at(-1)!.at - pieces[0]!.at).toBeGreaterThanOrEqual(300);
    expect(data.at(-1)).toBe("[DONE]");
    const content = data
      .filter((d) => d !== "[DONE]")
      .map((d) => JSON.parse(d) as { choices: { delta: { content?: string } }[] })
      .map((chunk) => chunk.choices[0]?.delta.content ?? "")
      .join("");
    expect(content).toBe("one two three four");
    const sent = vendor().calls.slice(before);
    expect(sent).toHaveLength(1);
    expect((sent[0]!.body as { stream_options: unknown }).stream_options).toEqual({ include_usage: true });
    expect(text).not.toContain(CANARY_KEY);
    await expectSpend(run, priceOf(usage));
  });

  it("passes tool calls through", async () => {
    const run = await gatewayRun();
    vendor().script({
      kind: "answer",
      text: "",
      toolCalls: [{ id: "call_1", name: "lookup", arguments: '{"q":"fleet"}' }],
    });
    const { data } = await stream(run);
    const calls = data
      .filter((d) => d !== "[DONE]")
      .flatMap((d) => (JSON.parse(d) as { choices: { delta: { tool_calls?: unknown[] } }[] }).choices)
      .flatMap(
        (choice) => (choice.delta.tool_calls ?? []) as { function?: { name?: string; arguments?: string } }[],
      );
    expect(calls.map((c) => c.function?.name).filter(Boolean)).toEqual(["lookup"]);
    expect(calls.map((c) => c.function?.arguments ?? "").join("")).toBe('{"q":"fleet"}');
  });

  it("ends a stream the vendor breaks with an error frame a client library throws on, then [DONE]", async () => {
    const run = await gatewayRun();
    vendor().script({ kind: "break", afterChunks: 2 });
    const { response, data } = await stream(run);
    expect(response.status).toBe(200);
    expect(data.at(-1)).toBe("[DONE]");
    const error = JSON.parse(data.at(-2)!) as { error: { message: string; type: string } };
    expect(error.error.type).toBe("upstream_error");
    // No usage came: nothing is charged.
    await expectNothingCharged(run);
  });

  it("refuses before streaming when the vendor refuses: a problem, not a stream", async () => {
    const run = await gatewayRun();
    vendor().script({ kind: "status", status: 503 });
    const { response, text } = await stream(run);
    expect(response.status).toBe(502);
    expect(JSON.parse(text).error_code).toBe("UZ-MODEL-002");
  });

  // Last: it sets the platform default of this file's database.
  it("uses the platform default's key and model for a tenant without a provider of its own", async () => {
    await usePlatformDefault("openai", MODEL);
    const run = await gatewayRun(null);
    const before = vendor().calls.length;
    const answer = await chat(run);
    expect(answer.status, answer.text).toBe(200);
    const sent = vendor().calls.slice(before);
    expect(sent.map((c) => (c.body as { model: string }).model)).toEqual([MODEL]);
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
    expect(answer.text).not.toContain(CANARY_KEY);
  });
});
