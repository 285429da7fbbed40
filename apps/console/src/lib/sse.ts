/** One Server-Sent Events frame as the wire carries it. */
export interface SseFrame {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * An incremental `text/event-stream` parser (the WHATWG rules the streams need): `id:`, `event:`, one or
 * more `data:` lines joined by newlines, comments (`:`) ignored, a blank line ends a frame. Chunks may
 * split anywhere, including inside a CRLF.
 */
export class SseParser {
  private buffer = "";
  private id: string | undefined;
  private event = "";
  private data: string[] = [];

  /** Feeds text; answers the frames it completed. */
  push(text: string): SseFrame[] {
    this.buffer += text;
    const frames: SseFrame[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (match === null || (match[0] === "\r" && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const frame = this.line(line);
      if (frame !== null) frames.push(frame);
    }
    return frames;
  }

  private line(line: string): SseFrame | null {
    if (line === "") {
      if (this.data.length === 0 && this.event === "") return null;
      const frame = { id: this.id, event: this.event || "message", data: this.data.join("\n") };
      this.event = "";
      this.data = [];
      return frame;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "id" && !value.includes("\0")) this.id = value;
    else if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    return null;
  }
}

/** The wait before reconnect attempt `attempt` (1, 2, …): exponential up to a ceiling, with full jitter above half. */
export function backoffMs(attempt: number, baseMs = 1_000, ceilingMs = 30_000, random = Math.random): number {
  const ceiling = Math.min(ceilingMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Remembers the last `size` ids seen, to drop a frame delivered twice (a replay after a reconnect). */
export class RecentIds {
  private readonly seen = new Set<string>();
  private readonly order: string[] = [];
  constructor(private readonly size = 2_000) {}

  /** True the first time an id is offered, false for a repeat. */
  add(id: string): boolean {
    if (this.seen.has(id)) return false;
    this.seen.add(id);
    this.order.push(id);
    if (this.order.length > this.size) this.seen.delete(this.order.shift()!);
    return true;
  }
}
