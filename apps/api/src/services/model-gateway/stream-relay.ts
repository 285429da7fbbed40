import { StringDecoder } from "node:string_decoder";
import { MODEL_STREAM_MAX_BYTES } from "@fleet/contracts";
import { pieceScrubber } from "./failures.ts";
import type { Forwarded } from "./forward.ts";
import { deltaText } from "./live-output.ts";
import type { CallUsage } from "./meter.ts";
import { openaiUsage } from "./meter.ts";

/** The frame a stream the vendor breaks ends with: OpenAI's clients throw an API error on `data.error`. */
export function errorFrame(message: string, type: string): string {
  return `data: ${JSON.stringify({ error: { message, type, code: null, param: null } })}\n\n`;
}

/** The longest `data:` line (and Anthropic event) the gateway parses; a vendor's chunks are far shorter. */
export const LINE_MAX_CHARS = 1024 * 1024;

/** The last frame of every stream the gateway relays. */
export const DONE = "data: [DONE]\n\n";

/**
 * The vendor's stream as text, each piece decoded as it arrives (each re-arms the deadline). A read that
 * fails, the vendor having broken the connection or stalled past the deadline, ends the pieces and puts
 * in `ended.frames` what the client is sent instead: the error frame its library reads, then `[DONE]`.
 */
export async function* vendorText(forwarded: Forwarded, ended: { frames: string[] }): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  const pieces = (forwarded.response as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let bytes = 0;
  for (;;) {
    let next: IteratorResult<Buffer>;
    try {
      next = await pieces.next();
    } catch {
      const timedOut = (forwarded.reason() as { name?: string } | undefined)?.name === "TimeoutError";
      ended.frames = [
        errorFrame(
          timedOut ? "The model provider stalled mid-stream." : "The model provider broke the stream.",
          timedOut ? "upstream_timeout" : "upstream_error",
        ),
        DONE,
      ];
      return;
    }
    if (next.done) {
      const rest = decoder.end();
      if (rest !== "") yield rest;
      return;
    }
    forwarded.touch();
    bytes += next.value.byteLength;
    if (bytes > MODEL_STREAM_MAX_BYTES) {
      ended.frames = [
        errorFrame(`The model provider's stream passed ${MODEL_STREAM_MAX_BYTES} bytes.`, "upstream_error"),
        DONE,
      ];
      return;
    }
    const text = decoder.write(next.value);
    if (text !== "") yield text;
  }
}

/** Whether `line` has the field `name` (quoted) with a value starting with `first` (`"` a string, `{`). */
function hasField(line: string, name: string, first: string): boolean {
  for (let at = line.indexOf(name); at !== -1; at = line.indexOf(name, at + 1)) {
    let i = at + name.length;
    while (line[i] === " ") i++;
    if (line[i] !== ":") continue;
    i++;
    while (line[i] === " ") i++;
    if (line[i] === first) return true;
  }
  return false;
}

/**
 * Relays a vendor's SSE stream as it arrives, each piece passed on as the vendor sent it (the key
 * scrubbed, were it ever echoed, also when it is cut between two network reads: pieceScrubber), while
 * reading its `data:` lines for the usage the last chunk carries. Only a line that can carry what is read
 * (a usage object, or text for `onText`) is parsed; the rest (the role chunk, the finish chunk, `usage:
 * null`, `[DONE]`) is only passed on. A vendor that breaks or stalls mid-way ends the relay with an error
 * frame and `[DONE]`. `settle` runs once, when the stream ends however it ends, with the usage seen (null
 * if none came). `onText` is told each piece of the model's text, after the chunk carrying it was passed
 * on (the live tail's hook).
 */
export async function* relayStream(
  forwarded: Forwarded,
  apiKey: string | null,
  settle: (usage: CallUsage | null) => void,
  onText?: (delta: string) => void,
): AsyncGenerator<string> {
  let usage: CallUsage | null = null;
  let pending = "";
  let unread = "";
  const read = (text: string) => {
    pending += text;
    // A line this long is no chunk a client reads: it is relayed as it came, not parsed.
    if (pending.length > LINE_MAX_CHARS && !pending.includes("\n")) pending = "";
    let end = pending.indexOf("\n");
    while (end !== -1) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
      if (!line.startsWith("data:")) continue;
      const hasUsage = hasField(line, '"usage"', "{");
      const hasText = onText !== undefined && hasField(line, '"content"', '"');
      if (!hasUsage && !hasText) continue;
      try {
        const chunk = JSON.parse(line.slice(5)) as { usage?: unknown };
        if (hasUsage) usage = openaiUsage(chunk.usage) ?? usage;
        const delta = hasText ? deltaText(chunk) : "";
        if (delta !== "") onText!(delta);
      } catch {
        // not JSON: passed on all the same
      }
    }
  };
  const scrubber = pieceScrubber(apiKey);
  const ended = { frames: [] as string[] };
  try {
    for await (const text of vendorText(forwarded, ended)) {
      unread = text;
      const clean = scrubber.next(text);
      if (clean !== "") yield clean;
      unread = "";
      read(text);
    }
    const held = scrubber.end();
    if (held !== "") yield held;
    yield* ended.frames;
  } finally {
    if (unread !== "") read(unread);
    forwarded.stop();
    settle(usage);
  }
}
