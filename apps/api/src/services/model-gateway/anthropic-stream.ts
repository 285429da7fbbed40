import {
  type AnthropicTokens,
  anthropicTokens,
  createdNow,
  finishReason,
  meteredUsage,
  openaiUsageOf,
} from "./anthropic-answer.ts";
import { scrub } from "./failures.ts";
import type { Forwarded } from "./forward.ts";
import type { CallUsage } from "./meter.ts";
import { DONE, errorFrame, LINE_MAX_CHARS, vendorText } from "./stream-relay.ts";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Translates Anthropic's stream events into OpenAI `chat.completion.chunk` frames, one event at a time.
 * `frames` answers the frames an event makes (often none), and whether the stream is over.
 */
class Translator {
  id = "msg";
  model = "";
  readonly created = createdNow();
  /** Input counts from message_start; output (and any later input counts) from message_delta. */
  tokens: AnthropicTokens | null = null;
  /** Set once message_delta carried the final usage: only then is the call charged. */
  final = false;
  /** The OpenAI tool-call index of each Anthropic content block that is a tool_use. */
  private readonly tools = new Map<number, number>();

  constructor(
    private readonly includeUsage: boolean,
    /** Hears each piece of the model's text (the live tail's chunk frames), after it is framed. */
    private readonly onText: ((delta: string) => void) | undefined,
  ) {}

  private chunk(delta: Json, finish: string | null = null): string {
    const choice = { index: 0, delta, logprobs: null, finish_reason: finish };
    const frame = { id: this.id, object: "chat.completion.chunk", created: this.created, model: this.model };
    return `data: ${JSON.stringify({ ...frame, choices: [choice] })}\n\n`;
  }

  frames(event: Json): { out: string[]; over: boolean } {
    const out: string[] = [];
    const index = typeof event.index === "number" ? event.index : -1;
    switch (event.type) {
      case "message_start": {
        const message = isObject(event.message) ? event.message : {};
        if (typeof message.id === "string") this.id = message.id;
        if (typeof message.model === "string") this.model = message.model;
        this.tokens = anthropicTokens(message.usage);
        out.push(this.chunk({ role: "assistant", content: "" }));
        break;
      }
      case "content_block_start": {
        const block = isObject(event.content_block) ? event.content_block : {};
        if (block.type === "text" && typeof block.text === "string" && block.text !== "") {
          out.push(this.chunk({ content: block.text }));
          this.onText?.(block.text);
        } else if (block.type === "tool_use") {
          const at = this.tools.size;
          this.tools.set(index, at);
          const fn = { name: typeof block.name === "string" ? block.name : "", arguments: "" };
          out.push(this.chunk({ tool_calls: [{ index: at, id: block.id, type: "function", function: fn }] }));
        }
        break;
      }
      case "content_block_delta": {
        const delta = isObject(event.delta) ? event.delta : {};
        if (delta.type === "text_delta" && typeof delta.text === "string") {
          out.push(this.chunk({ content: delta.text }));
          this.onText?.(delta.text);
        } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
          const at = this.tools.get(index);
          if (at !== undefined && delta.partial_json !== "") {
            const call = { index: at, function: { arguments: delta.partial_json } };
            out.push(this.chunk({ tool_calls: [call] }));
          }
        }
        break;
      }
      case "message_delta": {
        const later = anthropicTokens(event.usage);
        if (later !== null) {
          const before = this.tokens;
          // message_delta's counts are cumulative; input counts it names replace message_start's.
          const has = (key: string) => isObject(event.usage) && event.usage[key] !== undefined;
          this.tokens = {
            input: has("input_tokens") ? later.input : (before?.input ?? 0),
            cacheWrite: has("cache_creation_input_tokens") ? later.cacheWrite : (before?.cacheWrite ?? 0),
            cacheRead: has("cache_read_input_tokens") ? later.cacheRead : (before?.cacheRead ?? 0),
            output: later.output,
          };
          this.final = true;
        }
        const delta = isObject(event.delta) ? event.delta : {};
        out.push(this.chunk({}, finishReason(delta.stop_reason) ?? "stop"));
        break;
      }
      case "message_stop": {
        if (this.includeUsage && this.tokens !== null) {
          const frame = {
            id: this.id,
            object: "chat.completion.chunk",
            created: this.created,
            model: this.model,
          };
          out.push(
            `data: ${JSON.stringify({ ...frame, choices: [], usage: openaiUsageOf(this.tokens) })}\n\n`,
          );
        }
        out.push(DONE);
        return { out, over: true };
      }
      case "error": {
        const error = isObject(event.error) ? event.error : {};
        const said = typeof error.message === "string" ? `: ${error.message.slice(0, 1000)}` : ".";
        out.push(errorFrame(`The model provider reported an error mid-stream${said}`, "upstream_error"));
        out.push(DONE);
        return { out, over: true };
      }
      default:
        // ping, content_block_stop, thinking blocks and events added later: nothing to send.
        break;
    }
    return { out, over: false };
  }

  usage(): CallUsage | null {
    return this.final && this.tokens !== null ? meteredUsage(this.tokens) : null;
  }
}

/** One SSE block's data as JSON (its `type` says the event); null for a comment or non-JSON block. */
function eventOf(block: string): Json | null {
  const data = block
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trimStart())
    .join("\n");
  if (data === "") return null;
  try {
    const parsed: unknown = JSON.parse(data);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Relays an Anthropic stream as OpenAI chunk frames, each event translated and yielded as it arrives
 * (nothing buffered beyond one event), ending with a usage chunk when the client asked for
 * `stream_options.include_usage`, then `[DONE]`. An `error` event, a broken or stalled connection, or a
 * stream that ends before `message_stop` ends with the OpenAI path's error frame and `[DONE]`. `settle`
 * runs once at the end with the usage seen: only a stream whose final `message_delta` arrived is charged.
 */
export async function* anthropicStream(
  forwarded: Forwarded,
  apiKey: string | null,
  includeUsage: boolean,
  settle: (usage: CallUsage | null) => void,
  onText?: (delta: string) => void,
): AsyncGenerator<string> {
  const translator = new Translator(includeUsage, onText);
  const clean = (frame: string) => (apiKey !== null && frame.includes(apiKey) ? scrub(frame, apiKey) : frame);
  const ended = { frames: [] as string[] };
  try {
    let pending = "";
    for await (const text of vendorText(forwarded, ended)) {
      pending += text.replace(/\r\n/g, "\n");
      let end = pending.indexOf("\n\n");
      while (end !== -1) {
        const event = eventOf(pending.slice(0, end));
        pending = pending.slice(end + 2);
        end = pending.indexOf("\n\n");
        if (event === null) continue;
        const { out, over } = translator.frames(event);
        for (const frame of out) yield clean(frame);
        if (over) return;
      }
      if (pending.length > LINE_MAX_CHARS) {
        yield errorFrame("The model provider sent an event too long to read.", "upstream_error");
        yield DONE;
        return;
      }
    }
    if (ended.frames.length > 0) {
      yield* ended.frames;
      return;
    }
    yield errorFrame("The model provider ended the stream early.", "upstream_error");
    yield DONE;
  } finally {
    forwarded.stop();
    settle(translator.usage());
  }
}
