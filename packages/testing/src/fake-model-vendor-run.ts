import type { WireContext } from "./fake-model-vendor.ts";
import { type Answer, breakAnswer, resolveAnswer } from "./fake-model-vendor-scripts.ts";
import { eventText, SseWriter, sendJson, sleep } from "./fake-model-vendor-sse.ts";

export interface SseEvent {
  event?: string;
  data: unknown;
}

/** What a wire says for each kind of script; `runScript` does the rest (pacing, breaks, hangs). */
export interface WireShapes {
  /** Headers every answer carries (a request id). */
  headers(): Record<string, string>;
  /** A refusal in the wire's error shape, with its headers. */
  error(status: number, message: string | undefined, retryAfter: string | undefined): void;
  /** The unstreamed answer's body. */
  message(answer: Answer): unknown;
  /** The streamed answer's events, its closing one included. */
  events(answer: Answer): SseEvent[];
  /** How the wire reports an error inside a stream that already started. */
  streamError(status: number, message: string | undefined): SseEvent;
}

/** Answers one completion call (already past its key and body checks) by the next script. */
export async function runScript(context: WireContext, stream: boolean, wire: WireShapes): Promise<void> {
  const { response } = context;
  const script = context.nextScript();
  if (script.kind === "hang") return context.hang();
  if (script.kind === "status" || (script.kind === "streamError" && !stream)) {
    const retryAfter = script.retryAfter ?? (script.status === 429 ? "1" : undefined);
    return wire.error(script.status, script.message, retryAfter);
  }
  if (script.kind === "break" || script.kind === "streamError") {
    const answer = breakAnswer(script.afterChunks, context.body);
    if (!stream) {
      const text = JSON.stringify(wire.message(answer));
      response.writeHead(200, { "content-type": "application/json", ...wire.headers() });
      response.write(text.slice(0, Math.floor(text.length / 2)), () => response.socket?.destroy());
      return;
    }
    const writer = new SseWriter(response, context.stopped);
    writer.open(wire.headers());
    for (const event of wire.events(answer).slice(0, script.afterChunks))
      writer.send(event.data, event.event);
    if (script.kind === "break") return writer.destroy();
    const error = wire.streamError(script.status, script.message);
    writer.send(error.data, error.event);
    return writer.end();
  }
  const answer = resolveAnswer(script, context.body);
  await sleep(answer.delayMs);
  await script.holdUntil;
  if (context.stopped() || response.destroyed) return;
  if (!stream) return sendJson(response, 200, wire.message(answer), wire.headers());
  const writer = new SseWriter(response, context.stopped);
  writer.open(wire.headers());
  if (script.splitWithin !== undefined) return splitStream(writer, wire.events(answer), script.splitWithin);
  for (const [index, event] of wire.events(answer).entries()) {
    if (index > 0) await sleep(answer.chunkDelayMs);
    if (!writer.live) return;
    writer.send(event.data, event.event);
  }
  writer.end();
}

/** The whole stream in two writes, cut in the middle of `within`'s first occurrence (else halfway). */
async function splitStream(writer: SseWriter, events: SseEvent[], within: string): Promise<void> {
  const text = events.map((event) => eventText(event.data, event.event)).join("");
  const found = text.indexOf(within);
  const cut = found === -1 ? Math.floor(text.length / 2) : found + Math.floor(within.length / 2);
  writer.write(text.slice(0, cut));
  await writer.flushed;
  // Long enough for the first piece to be read on its own before the second arrives.
  await sleep(20);
  if (!writer.live) return;
  writer.write(text.slice(cut));
  writer.end();
}
