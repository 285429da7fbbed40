import type { ServerResponse } from "node:http";

/**
 * Server-sent events for the fake model vendor: `text/event-stream` headers flushed at once, each event
 * written as soon as it is made (no Nagle delay, no buffering), and nothing written once the client left
 * or the vendor closed.
 */
export class SseWriter {
  written = 0;
  flushed: Promise<void> = Promise.resolve();
  readonly response: ServerResponse;
  readonly stopped: () => boolean;

  constructor(response: ServerResponse, stopped: () => boolean) {
    this.response = response;
    this.stopped = stopped;
  }

  open(headers: Record<string, string> = {}) {
    this.response.socket?.setNoDelay(true);
    this.response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...headers,
    });
    this.response.flushHeaders();
  }

  /** False when the stream can take no more (client gone, vendor closing). */
  get live(): boolean {
    return !this.stopped() && !this.response.destroyed && !this.response.writableEnded;
  }

  /** One event: `event:` line when named (Anthropic), then its `data:` line. */
  send(data: unknown, event?: string) {
    this.write(eventText(data, event));
    this.written += 1;
  }

  /** Text as it is, in one write; `flushed` settles once it has left. */
  write(text: string) {
    if (!this.live) return;
    this.flushed = new Promise((resolve) => {
      this.response.write(text, () => resolve());
    });
  }

  end() {
    if (this.live) this.response.end();
  }

  /**
   * Cuts the connection without ending the stream, as a vendor that falls over mid-answer does (once
   * what was sent has left, so the client sees it before the cut).
   */
  async destroy() {
    await this.flushed;
    this.response.socket?.destroy();
    this.response.destroy();
  }
}

/** One server-sent event's text: its `event:` line when named (Anthropic), then its `data:` line. */
export function eventText(data: unknown, event?: string): string {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ""}data: ${text}\n\n`;
}

export function sleep(ms: number | undefined): Promise<void> {
  if (!ms || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A JSON answer with the vendor's headers. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  if (response.destroyed || response.writableEnded) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

/** True for a JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A fetch answer's server-sent events, read to the end: each event's name (when sent) and data. */
export async function readSse(response: Response): Promise<{ event?: string; data: string }[]> {
  const text = await response.text();
  const events: { event?: string; data: string }[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    events.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
  }
  return events;
}
