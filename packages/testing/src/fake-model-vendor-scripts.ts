import { randomBytes } from "node:crypto";
import type { VendorScript } from "./fake-model-vendor.ts";

export const DEFAULT_TEXT = "Hello from the fake model.";

export type AnswerScript = Extract<VendorScript, { kind: "answer" }>;

/** What a wire writes for an answer: its text, tool calls, usage and pacing, defaults filled in. */
export interface Answer {
  text: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  usage: { input: number; output: number; cached: number };
  chunks: number;
  delayMs: number;
  chunkDelayMs: number;
}

/** About four characters a token, at least one: the default usage when a script names none. */
export function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function resolveAnswer(script: AnswerScript, requestBody: unknown): Answer {
  const toolCalls = script.toolCalls ?? [];
  const text = script.text ?? (toolCalls.length > 0 ? "" : DEFAULT_TEXT);
  const input = tokens(JSON.stringify(requestBody ?? ""));
  const output = tokens(text + toolCalls.map((call) => call.name + call.arguments).join(""));
  return {
    text,
    toolCalls,
    usage: {
      input: script.usage?.input ?? input,
      output: script.usage?.output ?? output,
      cached: script.usage?.cached ?? 0,
    },
    chunks: Math.max(1, script.chunks ?? 3),
    delayMs: script.delayMs ?? 0,
    chunkDelayMs: script.chunkDelayMs ?? 0,
  };
}

/** `text` cut into `count` pieces (fewer when the text is shorter); no empty piece unless the text is. */
export function split(text: string, count: number): string[] {
  if (text.length === 0) return [];
  const pieces = Math.min(count, text.length);
  const size = Math.ceil(text.length / pieces);
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

export function vendorId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString("hex")}`;
}

/** The answer a "break" script streams the start of: the default text in enough pieces to break inside. */
export function breakAnswer(afterChunks: number, requestBody: unknown): Answer {
  return resolveAnswer({ kind: "answer", chunks: Math.max(3, afterChunks + 3) }, requestBody);
}
