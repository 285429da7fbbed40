import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelVendor, startFakeModelVendor } from "./fake-model-vendor.ts";
import { readSse } from "./fake-model-vendor-sse.ts";

let vendor: FakeModelVendor;
beforeAll(async () => {
  vendor = await startFakeModelVendor();
});
afterAll(() => vendor.close());

// biome-ignore lint/suspicious/noExplicitAny: the tests read the vendor's JSON loosely
const json = (response: Response): Promise<any> => response.json();

const messages = [{ role: "user", content: "Say hello." }];
const model = "claude-sonnet-4-5";

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${vendor.anthropicBaseUrl}/v1/messages`, {
    method: "POST",
    headers: {
      "x-api-key": vendor.apiKey,
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The stream's events, each `event:` name checked against its data's `type`. */
async function eventsOf(response: Response) {
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const events = await readSse(response);
  return events.map((event) => {
    const data = JSON.parse(event.data);
    expect(event.event).toBe(data.type);
    return data;
  });
}

describe("fake model vendor, Anthropic wire", () => {
  it("lists its models with a key and a version", async () => {
    const response = await fetch(`${vendor.anthropicBaseUrl}/v1/models`, {
      headers: { "x-api-key": vendor.apiKey, "anthropic-version": "2023-06-01" },
    });
    expect(response.status).toBe(200);
    const page = await json(response);
    expect(page.data.map((entry: { id: string }) => entry.id)).toEqual(vendor.models);
    expect(page.has_more).toBe(false);
    expect(vendor.calls.at(-1)).toMatchObject({ wire: "anthropic", method: "GET", path: "/v1/models" });
  });

  it("answers a message with usage, and records the call", async () => {
    const body = { model, max_tokens: 64, messages };
    const response = await post(body);
    expect(response.status).toBe(200);
    const answer = await json(response);
    expect(answer).toMatchObject({ type: "message", role: "assistant", model, stop_reason: "end_turn" });
    expect(answer.id).toMatch(/^msg_/);
    expect(answer.content).toEqual([{ type: "text", text: "Hello from the fake model." }]);
    expect(answer.usage.input_tokens).toBeGreaterThan(0);
    expect(answer.usage.output_tokens).toBeGreaterThan(0);
    expect(answer.usage.cache_read_input_tokens).toBe(0);
    expect(vendor.calls.at(-1)).toMatchObject({
      wire: "anthropic",
      method: "POST",
      path: "/v1/messages",
      body,
    });
  });

  it("answers tool_use blocks and scripted usage, the cached part apart", async () => {
    const toolCalls = [{ id: "toolu_1", name: "get_weather", arguments: '{"city":"Oslo"}' }];
    vendor.script({
      kind: "answer",
      text: "Looking.",
      toolCalls,
      usage: { input: 20, output: 9, cached: 5 },
    });
    const answer = await json(await post({ model, max_tokens: 64, messages }));
    expect(answer.content).toEqual([
      { type: "text", text: "Looking." },
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } },
    ]);
    expect(answer.stop_reason).toBe("tool_use");
    expect(answer.usage).toEqual({
      input_tokens: 15,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 5,
      output_tokens: 9,
    });
  });

  it("streams the real event sequence, text and tool input rebuilt from deltas", async () => {
    const toolCalls = [{ id: "toolu_2", name: "search", arguments: '{"q":"fleet control"}' }];
    vendor.script({
      kind: "answer",
      text: "abcdef",
      chunks: 3,
      toolCalls,
      usage: { input: 8, output: 4, cached: 2 },
    });
    const events = await eventsOf(await post({ model, max_tokens: 64, messages, stream: true }));
    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const start = events[0].message;
    expect(start).toMatchObject({
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
    });
    expect(start.usage).toMatchObject({ input_tokens: 6, cache_read_input_tokens: 2 });
    const blocks: { type: string; text?: string; json?: string; id?: string; name?: string }[] = [];
    for (const event of events) {
      if (event.type === "content_block_start") blocks[event.index] = { ...event.content_block, json: "" };
      if (event.type === "content_block_delta") {
        const block = blocks[event.index] as { text?: string; json?: string };
        if (event.delta.type === "text_delta") block.text += event.delta.text;
        if (event.delta.type === "input_json_delta") block.json += event.delta.partial_json;
      }
    }
    expect(blocks[0]?.text).toBe("abcdef");
    expect(blocks[1]).toMatchObject({ type: "tool_use", id: "toolu_2", name: "search" });
    expect(JSON.parse(blocks[1]?.json ?? "")).toEqual({ q: "fleet control" });
    const delta = events.at(-2);
    expect(delta.delta.stop_reason).toBe("tool_use");
    expect(delta.usage.output_tokens).toBe(4);
  });

  it("refuses a wrong key, a missing version, an unknown model and a malformed body in Anthropic's shape", async () => {
    const wrong = await post({ model, max_tokens: 64, messages }, { "x-api-key": "sk-wrong" });
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    const noVersion = await fetch(`${vendor.anthropicBaseUrl}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": vendor.apiKey },
      body: JSON.stringify({ model, max_tokens: 64, messages }),
    });
    expect(noVersion.status).toBe(400);
    expect((await json(noVersion)).error.type).toBe("invalid_request_error");
    const unknown = await post({ model: "claude-nope", max_tokens: 64, messages });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.type).toBe("not_found_error");
    const malformed = await post("{not json");
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).error.type).toBe("invalid_request_error");
    const noMax = await post({ model, messages });
    expect(noMax.status).toBe(400);
  });

  it("answers scripted statuses, 429 with Retry-After", async () => {
    vendor.script({ kind: "status", status: 429 }, { kind: "status", status: 529 });
    const limited = await post({ model, max_tokens: 64, messages });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect((await json(limited)).error.type).toBe("rate_limit_error");
    const overloaded = await post({ model, max_tokens: 64, messages });
    expect(overloaded.status).toBe(529);
    expect((await json(overloaded)).error.type).toBe("overloaded_error");
  });

  it("reports an error inside a started stream as event: error", async () => {
    vendor.script({ kind: "streamError", afterChunks: 3, status: 529 });
    const events = await eventsOf(await post({ model, max_tokens: 64, messages, stream: true }));
    expect(events.map((event) => event.type)).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "error",
    ]);
    expect(events[3].error.type).toBe("overloaded_error");
  });

  it("breaks a stream after N events, and hangs until closed", async () => {
    vendor.script({ kind: "break", afterChunks: 1 });
    const response = await post({ model, max_tokens: 64, messages, stream: true });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    const own = await startFakeModelVendor({ apiKey: "sk-own", models: [model] });
    own.script({ kind: "hang" });
    const pending = fetch(`${own.anthropicBaseUrl}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "sk-own", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model, max_tokens: 64, messages }),
    }).then(
      () => "answered",
      () => "failed",
    );
    const raced = await Promise.race([
      pending,
      new Promise((resolve) => setTimeout(() => resolve("waiting"), 200)),
    ]);
    expect(raced).toBe("waiting");
    await own.close();
    expect(await pending).toBe("failed");
  });
});
