import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startDemoService } from "./demo-service.ts";
import { boardSummary, nextStep, SCRIPTED_NOTE } from "./scripted-model.ts";
import { streamPayloads } from "./scripted-wire.ts";

const tools = [
  { type: "function", function: { name: "http_request", parameters: {} } },
  { type: "function", function: { name: "memory_write", parameters: {} } },
];
const board =
  'HTTP 200\n\n{"services":[{"name":"checkout","status":"degraded","note":"slow"},{"name":"search","status":"operational"}]}';

describe("the script", () => {
  it("reads the board, then asks to remember what it shows, then answers", () => {
    const first = nextStep({ tools, messages: [{ role: "user", content: "How are we?" }] }, "http://b");
    expect(first.toolCall).toEqual({
      id: "call_read_board",
      name: "http_request",
      arguments: JSON.stringify({ method: "GET", url: "http://b/status" }),
    });
    const second = nextStep(
      { tools, messages: [{ role: "tool", tool_call_id: "call_read_board", content: board }] },
      "http://b",
    );
    expect(second.toolCall?.name).toBe("memory_write");
    expect(JSON.parse(second.toolCall!.arguments)).toMatchObject({ key: "status-board" });
    expect(second.text).toContain("checkout is degraded (slow)");
    const answered = nextStep(
      {
        tools,
        messages: [
          { role: "tool", tool_call_id: "call_read_board", content: board },
          { role: "tool", tool_call_id: "call_remember", content: "Remembered status-board." },
        ],
      },
      "http://b",
    );
    expect(answered.toolCall).toBeNull();
    expect(answered.text).toContain("I remembered it");
    expect(answered.text).toContain(SCRIPTED_NOTE);
  });

  it("starts over at a new user turn, whatever earlier runs' steps the context holds", () => {
    const again = nextStep(
      {
        tools,
        messages: [
          { role: "user", content: "How are we?" },
          { role: "tool", tool_call_id: "call_read_board", content: board },
          { role: "tool", tool_call_id: "call_remember", content: "Remembered status-board." },
          { role: "assistant", content: "Done." },
          { role: "user", content: "And now?" },
        ],
      },
      "http://b",
    );
    expect(again.toolCall?.id).toBe("call_read_board");
  });

  it("says so when the approval was denied, and when it has no tools", () => {
    const denied = nextStep(
      {
        tools,
        messages: [
          { role: "tool", tool_call_id: "call_read_board", content: board },
          {
            role: "tool",
            tool_call_id: "call_remember",
            content: [{ type: "text", text: "The approval was denied." }],
          },
        ],
      },
      "http://b",
    );
    expect(denied.text).toContain("I did not remember it: The approval was denied.");
    const toolless = nextStep({ messages: [{ role: "user", content: "Hi" }] }, "http://b");
    expect(toolless).toMatchObject({ toolCall: null });
    expect(toolless.text).toContain("You said: Hi.");
    expect(boardSummary("HTTP 502\n\nnot json")).toBe('the board answered "HTTP 502"');
  });

  it("streams the text word by word, then the call, the finish and the usage asked for", () => {
    const step = nextStep({ tools, messages: [] }, "http://b");
    const payloads = streamPayloads("c1", 1, { stream_options: { include_usage: true } }, step);
    expect(payloads.at(-1)).toBe("[DONE]");
    const chunks = payloads.slice(0, -1).map((payload) => JSON.parse(payload));
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    expect(text).toBe(step.text);
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta?.content).length).toBeGreaterThan(3);
    expect(
      chunks.find((chunk) => chunk.choices[0]?.delta?.tool_calls)?.choices[0].delta.tool_calls[0],
    ).toMatchObject({
      index: 0,
      id: "call_read_board",
      function: { name: "http_request" },
    });
    expect(chunks.at(-2).choices[0].finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: expect.any(Number) } });
  });
});

describe("the demo service, through the AI SDK's OpenAI-compatible client", () => {
  let service: Awaited<ReturnType<typeof startDemoService>>;
  beforeAll(async () => {
    service = await startDemoService(0);
  });
  afterAll(() => service.close());

  it("plays the whole script as a tool loop, streamed, the board read over HTTP", async () => {
    const model = createOpenAICompatible({ name: "scripted", baseURL: service.modelUrl, includeUsage: true });
    const calls: string[] = [];
    const result = streamText({
      model: model.chatModel("scripted-demo"),
      system: "You watch the status board.",
      prompt: "How is the board?",
      stopWhen: stepCountIs(5),
      tools: {
        http_request: tool({
          inputSchema: z.object({ method: z.string(), url: z.string() }),
          execute: async ({ url }) => {
            calls.push(`http_request ${url}`);
            const response = await fetch(url);
            return `HTTP ${response.status}\n\n${await response.text()}`;
          },
        }),
        memory_write: tool({
          inputSchema: z.object({ key: z.string(), content: z.string(), category: z.string().optional() }),
          execute: async ({ key, content }) => {
            calls.push(`memory_write ${key}: ${content}`);
            return `Remembered ${key}.`;
          },
        }),
      },
    });
    const text = await result.text;
    expect(calls).toEqual([
      `http_request ${service.url}/status`,
      "memory_write status-board: Last reading of the status board: checkout is degraded (p99 latency 2.4 s since 09:12 UTC).",
    ]);
    expect(text).toContain("I remembered it as the memory status-board.");
    expect(text).toContain(SCRIPTED_NOTE);
    expect((await result.totalUsage).totalTokens).toBeGreaterThan(0);
  });

  it("answers a body without messages 400, and lists its one model", async () => {
    const bad = await fetch(`${service.modelUrl}/chat/completions`, { method: "POST", body: "[]" });
    expect(bad.status).toBe(400);
    const models = await fetch(`${service.modelUrl}/models`).then((response) => response.json());
    expect(models).toEqual({ object: "list", data: [{ id: "scripted-demo", object: "model" }] });
  });
});
