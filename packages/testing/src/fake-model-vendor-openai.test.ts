import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelVendor, modelVendorEnv, startFakeModelVendor } from "./fake-model-vendor.ts";
import { readSse } from "./fake-model-vendor-sse.ts";

let vendor: FakeModelVendor;
beforeAll(async () => {
  vendor = await startFakeModelVendor();
});
afterAll(() => vendor.close());

// biome-ignore lint/suspicious/noExplicitAny: the tests read the vendor's JSON loosely
const json = (response: Response): Promise<any> => response.json();

const messages = [{ role: "user", content: "Say hello." }];

function post(body: unknown, key = vendor.apiKey) {
  return fetch(`${vendor.openaiBaseUrl}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function chunksOf(response: Response) {
  const events = await readSse(response);
  expect(events.at(-1)?.data).toBe("[DONE]");
  return events.slice(0, -1).map((event) => JSON.parse(event.data));
}

describe("fake model vendor, OpenAI wire", () => {
  it("points an API at itself and lists its models", async () => {
    expect(modelVendorEnv(vendor)).toEqual({
      FLEET_OPENAI_BASE_URL: `${vendor.url}/v1`,
      FLEET_ANTHROPIC_BASE_URL: vendor.url,
    });
    const response = await fetch(`${vendor.openaiBaseUrl}/models`, {
      headers: { authorization: `Bearer ${vendor.apiKey}` },
    });
    expect(response.status).toBe(200);
    const list = await json(response);
    expect(list.object).toBe("list");
    expect(list.data.map((model: { id: string }) => model.id)).toEqual(vendor.models);
  });

  it("answers a chat.completion with usage, and records the call", async () => {
    const before = vendor.calls.length;
    const response = await post({ model: "gpt-4o-mini", messages });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.object).toBe("chat.completion");
    expect(body.model).toBe("gpt-4o-mini");
    expect(body.choices[0].message).toMatchObject({
      role: "assistant",
      content: "Hello from the fake model.",
    });
    expect(body.choices[0].finish_reason).toBe("stop");
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(body.usage.prompt_tokens_details.cached_tokens).toBe(0);
    const call = vendor.calls[before];
    expect(call).toMatchObject({ wire: "openai", method: "POST", path: "/v1/chat/completions" });
    expect(call?.body).toEqual({ model: "gpt-4o-mini", messages });
    expect(call?.headers.authorization).toBe(`Bearer ${vendor.apiKey}`);
  });

  it("answers scripted text, tool calls and usage", async () => {
    const toolCalls = [{ id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' }];
    vendor.script({ kind: "answer", text: "", toolCalls, usage: { input: 11, output: 7, cached: 3 } });
    const body = await json(await post({ model: "gpt-4o", messages }));
    expect(body.choices[0].message.content).toBeNull();
    expect(body.choices[0].message.tool_calls).toEqual([
      { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
    ]);
    expect(body.choices[0].finish_reason).toBe("tool_calls");
    expect(body.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    expect(body.usage.prompt_tokens_details.cached_tokens).toBe(3);
  });

  it("streams role, text pieces, finish, and usage only when asked", async () => {
    vendor.script({ kind: "answer", text: "abcdef", chunks: 3 });
    const response = await post({ model: "gpt-4o-mini", messages, stream: true });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const plain = await chunksOf(response);
    expect(plain.every((chunk) => chunk.object === "chat.completion.chunk" && !("usage" in chunk))).toBe(
      true,
    );
    expect(plain[0].choices[0].delta.role).toBe("assistant");
    expect(plain.slice(1, -1).map((chunk) => chunk.choices[0].delta.content)).toEqual(["ab", "cd", "ef"]);
    expect(plain.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });

    vendor.script({ kind: "answer", text: "abcdef", usage: { input: 5, output: 2, cached: 1 } });
    const options = { stream: true, stream_options: { include_usage: true } };
    const counted = await chunksOf(await post({ model: "gpt-4o-mini", messages, ...options }));
    const last = counted.at(-1);
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
    expect(last.usage.prompt_tokens_details.cached_tokens).toBe(1);
    expect(counted.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it("streams tool calls as index, id and name, then argument pieces", async () => {
    const toolCalls = [
      { id: "call_a", name: "search", arguments: '{"q":"fleet"}' },
      { id: "call_b", name: "open", arguments: '{"id":7}' },
    ];
    vendor.script({ kind: "answer", toolCalls });
    const chunks = await chunksOf(await post({ model: "gpt-4o", messages, stream: true }));
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    for (const chunk of chunks) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        calls[delta.index] ??= { arguments: "" };
        const call = calls[delta.index] as { id?: string; name?: string; arguments: string };
        if (delta.id) call.id = delta.id;
        if (delta.function?.name) call.name = delta.function.name;
        call.arguments += delta.function?.arguments ?? "";
      }
    }
    expect(calls).toEqual(toolCalls);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("tool_calls");
  });

  it("answers each call by its request when a responder is given and no script is queued", async () => {
    const own = await startFakeModelVendor({
      respond: (body) => {
        const last = (body as { messages: { content: string }[] }).messages.at(-1)?.content ?? "";
        return last === "default" ? undefined : { kind: "answer", text: `you said ${last}` };
      },
    });
    try {
      const ask = (content: string) =>
        fetch(`${own.openaiBaseUrl}/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${own.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content }] }),
        }).then(json);
      const [first, second] = await Promise.all([ask("one"), ask("two")]);
      expect(first.choices[0].message.content).toBe("you said one");
      expect(second.choices[0].message.content).toBe("you said two");
      expect((await ask("default")).choices[0].message.content).toBe("Hello from the fake model.");
      own.script({ kind: "answer", text: "queued first" });
      expect((await ask("one")).choices[0].message.content).toBe("queued first");
    } finally {
      await own.close();
    }
  });

  it("refuses a wrong or missing key, an unknown model and a malformed body in OpenAI's shape", async () => {
    const wrong = await post({ model: "gpt-4o", messages }, "sk-wrong");
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).error).toMatchObject({
      type: "invalid_request_error",
      code: "invalid_api_key",
    });
    const missing = await fetch(`${vendor.openaiBaseUrl}/models`);
    expect(missing.status).toBe(401);
    expect((await json(missing)).error.code).toBe("invalid_api_key");
    const unknown = await post({ model: "gpt-nope", messages });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe("model_not_found");
    const malformed = await post("{not json");
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).error.type).toBe("invalid_request_error");
    const empty = await post({ model: "gpt-4o", messages: [] });
    expect(empty.status).toBe(400);
  });

  it("answers scripted statuses, 429 with Retry-After", async () => {
    vendor.script(
      { kind: "status", status: 429 },
      { kind: "status", status: 503, retryAfter: "7", message: "busy" },
    );
    const limited = await post({ model: "gpt-4o", messages });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect((await json(limited)).error).toMatchObject({ type: "requests", code: "rate_limit_exceeded" });
    const down = await post({ model: "gpt-4o", messages });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("7");
    expect((await json(down)).error).toMatchObject({ type: "server_error", message: "busy" });
    const back = await post({ model: "gpt-4o", messages });
    expect(back.status).toBe(200);
  });

  it("delays the answer's headers and paces the chunks", async () => {
    vendor.script({ kind: "answer", delayMs: 150 }, { kind: "answer", chunks: 3, chunkDelayMs: 60 });
    const started = Date.now();
    await json(await post({ model: "gpt-4o", messages }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const response = await post({ model: "gpt-4o", messages, stream: true });
    const firstAt = Date.now();
    await response.text();
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual(200);
  });

  it("breaks a stream after N chunks", async () => {
    vendor.script({ kind: "break", afterChunks: 2 });
    const response = await post({ model: "gpt-4o", messages, stream: true });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    let text = "";
    const failure = await (async () => {
      try {
        for (;;) {
          const { done, value } = (await reader?.read()) ?? { done: true, value: undefined };
          if (done) return undefined;
          text += new TextDecoder().decode(value);
        }
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(Error);
    expect(text.split("\n\n").filter((block) => block.startsWith("data:"))).toHaveLength(2);
    expect(text).not.toContain("[DONE]");
  });

  it("reports an error inside a started stream as a data: {error} line, and cuts an unstreamed answer short", async () => {
    vendor.script({ kind: "streamError", afterChunks: 2, status: 500, message: "boom" });
    const events = await readSse(await post({ model: "gpt-4o", messages, stream: true }));
    expect(events).toHaveLength(3);
    expect(JSON.parse(events[2]?.data ?? "")).toEqual({
      error: { message: "boom", type: "server_error", param: null, code: null },
    });
    vendor.script({ kind: "streamError", afterChunks: 2, status: 429 });
    const refused = await post({ model: "gpt-4o", messages });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    vendor.script({ kind: "break", afterChunks: 0 });
    const cut = await post({ model: "gpt-4o", messages });
    expect(cut.status).toBe(200);
    await expect(cut.text()).rejects.toThrow();
  });

  it("hangs until the vendor closes", async () => {
    const own = await startFakeModelVendor({ apiKey: "sk-own", models: ["m-1"] });
    own.script({ kind: "hang" });
    const pending = fetch(`${own.openaiBaseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-own" },
      body: JSON.stringify({ model: "m-1", messages }),
    }).then(
      () => "answered",
      () => "failed",
    );
    const raced = await Promise.race([
      pending,
      new Promise((resolve) => setTimeout(() => resolve("waiting"), 200)),
    ]);
    expect(raced).toBe("waiting");
    expect(own.calls).toHaveLength(1);
    await own.close();
    expect(await pending).toBe("failed");
  });

  it("answers from its responder when no script is queued, and a queued script still goes first", async () => {
    const own = await startFakeModelVendor({
      apiKey: "sk-own",
      models: ["m-1"],
      respond: (body) =>
        JSON.stringify(body).includes("Say hello.")
          ? { kind: "answer", text: "Hello, by the responder." }
          : undefined,
    });
    const ask = async (content: string) => {
      const response = await fetch(`${own.openaiBaseUrl}/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer sk-own" },
        body: JSON.stringify({ model: "m-1", messages: [{ role: "user", content }] }),
      });
      return (await json(response)).choices[0].message.content;
    };
    own.script({ kind: "answer", text: "Queued." });
    expect(await ask("Say hello.")).toBe("Queued.");
    expect(await ask("Say hello.")).toBe("Hello, by the responder.");
    expect(await ask("Say goodbye.")).toBe("Hello from the fake model.");
    await own.close();
  });
});
