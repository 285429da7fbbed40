import { beforeAll, describe, expect, it } from "vitest";
import { call, operatorToken } from "./harness.ts";
import {
  apiLogs,
  CANARY_KEY,
  chat,
  expectNothingCharged,
  expectSpend,
  type GatewayRun,
  gatewayRun,
  PRICES,
  priceOf,
  streamCall,
  useModelVendor,
  usePlatformDefault,
} from "./model-gateway-fixtures.ts";
import { chunkTexts, fleetStream, openTail } from "./stream-fixtures.ts";

const CLAUDE = "claude-sonnet-4-5";
const vendor = useModelVendor({ FLEET_MODEL_DEADLINE_MS: "1500" });

beforeAll(async () => {
  const created = await call("POST", "/v1/admin/models", {
    token: await operatorToken(["model:write"]),
    body: { provider: "anthropic", model_id: CLAUDE, context_cap_tokens: 200_000, ...PRICES },
  });
  expect(created.status, created.text).toBe(201);
});

/** A tenant whose provider is anthropic (the canary key), and a lease of one of its fleets. */
const claudeRun = () => gatewayRun({ provider: "anthropic", model: CLAUDE });

/** The body the vendor got on the last call. */
const lastSent = () => vendor().calls.at(-1)!;

interface Chunk {
  object: string;
  choices: {
    delta: {
      role?: string;
      content?: string;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason: string | null;
  }[];
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    prompt_tokens_details: { cached_tokens: number };
  };
}

/** A streamed call read piece by piece as the API writes it, its chunks parsed. */
async function stream(run: GatewayRun, body: Record<string, unknown> = {}) {
  const read = await streamCall(run, body);
  const chunks = read.data.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d) as Chunk);
  return { ...read, chunks };
}

describe("the model gateway, anthropic translation (unstreamed)", () => {
  it("sends the Messages wire with the key in x-api-key and answers an OpenAI completion", async () => {
    const run = await claudeRun();
    vendor().script({ kind: "answer", text: "Hi there." });
    const answer = await chat(run, {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "hello" }] },
      ],
      temperature: 0.2,
      stop: "END",
    });
    expect(answer.status, answer.text).toBe(200);
    const sent = lastSent();
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe(CANARY_KEY);
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: CLAUDE,
      max_tokens: 4096,
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
      temperature: 0.2,
      stop_sequences: ["END"],
    });
    expect(answer.body.object).toBe("chat.completion");
    const choice = (answer.body.choices as { message: Record<string, unknown>; finish_reason: string }[])[0]!;
    expect(choice.message.role).toBe("assistant");
    expect(choice.message.content).toBe("Hi there.");
    expect(choice.message.tool_calls).toBeUndefined();
    expect(choice.finish_reason).toBe("stop");
    expect(answer.text).not.toContain(CANARY_KEY);
  });

  it("carries max_completion_tokens and tool_choice over", async () => {
    const run = await claudeRun();
    vendor().script({ kind: "answer" });
    const answer = await chat(run, {
      max_completion_tokens: 77,
      tools: [{ type: "function", function: { name: "noop" } }],
      tool_choice: { type: "function", function: { name: "noop" } },
      parallel_tool_calls: false,
    });
    expect(answer.status, answer.text).toBe(200);
    const body = lastSent().body as Record<string, unknown>;
    expect(body.max_tokens).toBe(77);
    expect(body.tools).toEqual([{ name: "noop", input_schema: { type: "object", properties: {} } }]);
    expect(body.tool_choice).toEqual({ type: "tool", name: "noop", disable_parallel_tool_use: true });
  });

  it("round-trips tools: tool calls and results reach the vendor in Anthropic form and come back in OpenAI form", async () => {
    const run = await claudeRun();
    vendor().script({
      kind: "answer",
      text: "",
      toolCalls: [{ id: "toolu_2", name: "lookup", arguments: '{"q":"next"}' }],
    });
    const parameters = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    const answer = await chat(run, {
      messages: [
        { role: "user", content: "find the fleet" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "toolu_1", type: "function", function: { name: "lookup", arguments: '{"q":"fleet"}' } },
            { id: "toolu_0", type: "function", function: { name: "lookup", arguments: "" } },
          ],
        },
        { role: "tool", tool_call_id: "toolu_1", content: "fleet-7 is running" },
        { role: "tool", tool_call_id: "toolu_0", content: [{ type: "text", text: "none" }] },
        { role: "user", content: "and then?" },
      ],
      tools: [{ type: "function", function: { name: "lookup", description: "Looks up.", parameters } }],
      tool_choice: "required",
    });
    expect(answer.status, answer.text).toBe(200);
    const body = lastSent().body as Record<string, unknown>;
    expect(body.tools).toEqual([{ name: "lookup", description: "Looks up.", input_schema: parameters }]);
    expect(body.tool_choice).toEqual({ type: "any" });
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "find the fleet" }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_1", name: "lookup", input: { q: "fleet" } },
          { type: "tool_use", id: "toolu_0", name: "lookup", input: {} },
        ],
      },
      // Parallel tool results and the user's next words: one user message, the results first.
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "fleet-7 is running" },
          { type: "tool_result", tool_use_id: "toolu_0", content: "none" },
          { type: "text", text: "and then?" },
        ],
      },
    ]);
    const choice = (answer.body.choices as { message: Record<string, unknown>; finish_reason: string }[])[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      { id: "toolu_2", type: "function", function: { name: "lookup", arguments: '{"q":"next"}' } },
    ]);
  });

  it("meters Anthropic's usage (uncached, cache read, output) at the catalogue's price", async () => {
    const run = await claudeRun();
    const usage = { input: 1200, output: 345, cached: 200 };
    vendor().script({ kind: "answer", usage });
    const answer = await chat(run);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.usage).toEqual({
      prompt_tokens: 1200,
      completion_tokens: 345,
      total_tokens: 1545,
      prompt_tokens_details: { cached_tokens: 200 },
    });
    await expectSpend(run, priceOf(usage));
  });

  it("refuses parts it does not translate with 400 UZ-MODEL-009, the vendor not called", async () => {
    const run = await claudeRun();
    const before = vendor().calls.length;
    const image = { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } };
    const bad = [
      { messages: [{ role: "user", content: [{ type: "text", text: "see" }, image] }] },
      { messages: [null] },
      { messages: [{ role: "function", name: "f", content: "x" }] },
      {
        messages: [
          { role: "assistant", tool_calls: [{ id: "t", function: { name: "f", arguments: "{no" } }] },
        ],
      },
      { tools: [{ type: "retrieval" }] },
      { tools: { type: "function" } },
      { max_tokens: "lots" },
      { n: 2 },
      { tool_choice: 7 },
    ];
    for (const body of bad) {
      const refused = await chat(run, body);
      expect(refused.status, `${JSON.stringify(body)} ${refused.text}`).toBe(400);
      expect(refused.body.error_code).toBe("UZ-MODEL-009");
    }
    expect(vendor().calls.length).toBe(before);
  });

  it("maps the vendor's refusals as the OpenAI path does", async () => {
    const run = await claudeRun();
    vendor().script({ kind: "status", status: 429, retryAfter: "9" });
    const limited = await chat(run);
    expect(limited.status, limited.text).toBe(429);
    expect(limited.body.error_code).toBe("UZ-MODEL-004");
    expect(limited.headers.get("retry-after")).toBe("9");
    for (const status of [500, 529]) {
      vendor().script({ kind: "status", status });
      const failed = await chat(run);
      expect(failed.status, failed.text).toBe(502);
      expect(failed.body.error_code).toBe("UZ-MODEL-002");
    }
    vendor().script({ kind: "status", status: 400, message: `messages: odd near ${CANARY_KEY}` });
    const refused = await chat(run);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.error_code).toBe("UZ-MODEL-006");
    expect(refused.body.detail).toContain("messages: odd");
    expect(refused.text).not.toContain(CANARY_KEY);
    const wrongKey = await gatewayRun({ provider: "anthropic", model: CLAUDE, api_key: "sk-ant-wrong" });
    const keyRefused = await chat(wrongKey);
    expect(keyRefused.status, keyRefused.text).toBe(409);
    expect(keyRefused.body.error_code).toBe("UZ-MODEL-005");
    expect(keyRefused.text).not.toContain("sk-ant-wrong");
  });

  it("lists the anthropic model", async () => {
    const run = await claudeRun();
    const listed = await call("GET", `/v1/runners/me/leases/${run.lease.lease_id}/model/models`, {
      token: run.runner.token,
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({
      object: "list",
      data: [{ id: CLAUDE, object: "model", created: 0, owned_by: "anthropic" }],
    });
  });
});

describe("the model gateway, anthropic translation (streamed)", () => {
  it("translates text events into chunks as they come, a usage chunk when asked, metered once", async () => {
    const run = await claudeRun();
    const tail = await openTail(fleetStream(run.tenant, run.fleetId, "?kinds=chunk"), run.tenant.apiKey);
    const usage = { input: 900, output: 120, cached: 300 };
    vendor().script({ kind: "answer", text: "one two three four", chunks: 4, chunkDelayMs: 120, usage });
    const { response, pieces, text, data, chunks } = await stream(run, {
      stream_options: { include_usage: true },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect((lastSent().body as { stream: boolean }).stream).toBe(true);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.at(-1)!.at - pieces[0]!.at).toBeGreaterThanOrEqual(300);
    expect(data.at(-1)).toBe("[DONE]");
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("one two three four");
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(["stop"]);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({
      prompt_tokens: 900,
      completion_tokens: 120,
      prompt_tokens_details: { cached_tokens: 300 },
    });
    expect(text).not.toContain(CANARY_KEY);
    await expectSpend(run, priceOf(usage));
    // The translated text reaches the fleet's live tail as chunk frames, as the OpenAI relay's does.
    await expect.poll(() => chunkTexts(tail).join("")).toBe("one two three four");
    tail.close();
  });

  it("translates tool_use blocks into OpenAI tool_call deltas, and meters without a usage chunk", async () => {
    const run = await claudeRun();
    const usage = { input: 50, output: 20 };
    vendor().script({
      kind: "answer",
      text: "Looking.",
      toolCalls: [
        { id: "toolu_a", name: "lookup", arguments: '{"q":"fleet"}' },
        { id: "toolu_b", name: "count", arguments: '{"n":2}' },
      ],
      usage,
    });
    const { data, chunks } = await stream(run);
    expect(data.at(-1)).toBe("[DONE]");
    expect(chunks.some((c) => c.usage !== undefined)).toBe(false);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const starts = calls.filter((c) => c.id !== undefined);
    expect(starts.map((c) => [c.index, c.id, c.function?.name])).toEqual([
      [0, "toolu_a", "lookup"],
      [1, "toolu_b", "count"],
    ]);
    const args = (i: number) =>
      calls
        .filter((c) => c.index === i)
        .map((c) => c.function?.arguments ?? "")
        .join("");
    expect(args(0)).toBe('{"q":"fleet"}');
    expect(args(1)).toBe('{"n":2}');
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("Looking.");
    expect(chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(["tool_calls"]);
    await expectSpend(run, priceOf(usage));
  });

  it("ends a stream the vendor breaks with the error frame and [DONE], nothing charged", async () => {
    const run = await claudeRun();
    vendor().script({ kind: "break", afterChunks: 4 });
    const { response, data } = await stream(run);
    expect(response.status).toBe(200);
    expect(data.at(-1)).toBe("[DONE]");
    const error = JSON.parse(data.at(-2)!) as { error: { message: string; type: string } };
    expect(error.error.type).toBe("upstream_error");
    await expectNothingCharged(run);
  });

  it("turns a mid-stream Anthropic error event into the error frame, the key scrubbed", async () => {
    const run = await claudeRun();
    vendor().script({
      kind: "streamError",
      afterChunks: 3,
      status: 529,
      message: `Overloaded ${CANARY_KEY}`,
    });
    const { data, text } = await stream(run);
    expect(data.at(-1)).toBe("[DONE]");
    const error = JSON.parse(data.at(-2)!) as { error: { message: string; type: string } };
    expect(error.error.type).toBe("upstream_error");
    expect(error.error.message).toContain("Overloaded");
    expect(text).not.toContain(CANARY_KEY);
    await expectNothingCharged(run);
  });

  it("refuses before streaming when the vendor refuses: a problem, not a stream", async () => {
    const run = await claudeRun();
    vendor().script({ kind: "status", status: 503 });
    const { response, text } = await stream(run);
    expect(response.status).toBe(502);
    expect(JSON.parse(text).error_code).toBe("UZ-MODEL-002");
  });

  // Last: it sets the platform default of this file's database.
  it("serves a platform default that is anthropic, with the platform's key", async () => {
    await usePlatformDefault("anthropic", CLAUDE);
    const run = await gatewayRun(null);
    vendor().script({ kind: "answer", text: "From the platform." });
    const answer = await chat(run);
    expect(answer.status, answer.text).toBe(200);
    expect(lastSent().path).toBe("/v1/messages");
    expect(lastSent().headers["x-api-key"]).toBe(CANARY_KEY);
    expect((lastSent().body as { model: string }).model).toBe(CLAUDE);
    const choice = (answer.body.choices as { message: { content: string } }[])[0]!;
    expect(choice.message.content).toBe("From the platform.");
  });

  it("never writes the provider key to the log", async () => {
    expect(await apiLogs()).not.toContain(CANARY_KEY);
  });
});
