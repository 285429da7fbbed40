import { Problem } from "@fleet/contracts";
import type { CallUsage } from "./meter.ts";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const count = (value: unknown): number =>
  typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : 0;

/** Anthropic's `stop_reason` as OpenAI's `finish_reason`. */
export function finishReason(stop: unknown): string | null {
  if (stop === null || stop === undefined) return null;
  if (stop === "tool_use") return "tool_calls";
  if (stop === "max_tokens" || stop === "model_context_window_exceeded") return "length";
  if (stop === "refusal") return "content_filter";
  return "stop";
}

/** Anthropic's usage, as its parts: input (uncached), cache writes, cache reads, output. */
export interface AnthropicTokens {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
}

export function anthropicTokens(usage: unknown): AnthropicTokens | null {
  if (!isObject(usage)) return null;
  return {
    input: count(usage.input_tokens),
    cacheWrite: count(usage.cache_creation_input_tokens),
    cacheRead: count(usage.cache_read_input_tokens),
    output: count(usage.output_tokens),
  };
}

/**
 * What the gateway meters: the uncached input is `input_tokens` plus the cache writes (priced as input:
 * the catalogue has no cache-write price), the cached part `cache_read_input_tokens`.
 */
export function meteredUsage(tokens: AnthropicTokens): CallUsage {
  return {
    input_tokens: tokens.input + tokens.cacheWrite,
    cached_tokens: tokens.cacheRead,
    output_tokens: tokens.output,
  };
}

/** OpenAI's usage object for Anthropic's counts: the prompt includes the cached and cache-written tokens. */
export function openaiUsageOf(tokens: AnthropicTokens) {
  const prompt = tokens.input + tokens.cacheWrite + tokens.cacheRead;
  return {
    prompt_tokens: prompt,
    completion_tokens: tokens.output,
    total_tokens: prompt + tokens.output,
    prompt_tokens_details: { cached_tokens: tokens.cacheRead },
  };
}

/** `created` in OpenAI's answers: Anthropic gives none, so the time the gateway made the answer. */
export const createdNow = (): number => Math.floor(Date.now() / 1000);

/**
 * An Anthropic `message` as an OpenAI `chat.completion`: text blocks joined as the content (null when
 * the answer is only tool calls), `tool_use` blocks as `tool_calls` with their input as JSON text; other
 * blocks (thinking) are left out. Anything not a message is a 502 UZ-MODEL-002.
 */
export function fromAnthropic(message: unknown): { answer: Json; usage: CallUsage | null } {
  if (!isObject(message) || message.type !== "message" || !Array.isArray(message.content)) {
    throw new Problem("UZ-MODEL-002", { detail: "The anthropic provider answered something not a message." });
  }
  let text = "";
  const toolCalls: Json[] = [];
  for (const block of message.content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") text += block.text;
    else if (block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string") {
      toolCalls.push({
        id: block.id,
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  const tokens = anthropicTokens(message.usage);
  const reply: Json = {
    role: "assistant",
    content: text === "" && toolCalls.length > 0 ? null : text,
    refusal: null,
  };
  if (toolCalls.length > 0) reply.tool_calls = toolCalls;
  const answer: Json = {
    id: typeof message.id === "string" ? message.id : "msg",
    object: "chat.completion",
    created: createdNow(),
    model: typeof message.model === "string" ? message.model : "",
    choices: [{ index: 0, message: reply, logprobs: null, finish_reason: finishReason(message.stop_reason) }],
  };
  if (tokens !== null) answer.usage = openaiUsageOf(tokens);
  return { answer, usage: tokens === null ? null : meteredUsage(tokens) };
}
