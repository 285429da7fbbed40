/**
 * The streams suite's subscribers, in a process of their own (forked by streams.ts) so their CPU is not
 * the server's: raw sockets, a GET written in one piece, and a scan of each frame for its kind, event id
 * and `at` — no SSE library. Talks to its parent over IPC:
 * - `{type: "open", base, path, token, count}` → opens `count` streams, answers `{type: "ready", open}`
 *   once each has sent its `hello`;
 * - every `event_received` frame is timed (`Date.now() - at`); `{type: "collect", eventId}` answers
 *   `{type: "collected", latencies}` once every open stream has it (or after 10 s, with what came).
 */
import { connect, type Socket } from "node:net";

interface Stream {
  socket: Socket;
  tail: string;
  hello: boolean;
}

const streams: Stream[] = [];
const latencies = new Map<string, number[]>();
const FRAME = /event: event_received\ndata: \{[^\n]*?"event_id":"([^"]+)"[^\n]*?"at":(\d+)/g;

function send(message: unknown): void {
  process.send?.(message);
}

function openOne(host: string, port: number, path: string, token: string, onHello: () => void): Stream {
  const socket = connect({ host, port });
  const stream: Stream = { socket, tail: "", hello: false };
  socket.setNoDelay(true);
  socket.setEncoding("utf8");
  socket.on("connect", () => {
    socket.write(
      `GET ${path} HTTP/1.1\r\nhost: ${host}:${port}\r\nauthorization: Bearer ${token}\r\naccept: text/event-stream\r\n\r\n`,
    );
  });
  socket.on("data", (chunk: string) => {
    const now = Date.now();
    const text = stream.tail + chunk;
    const end = text.lastIndexOf("\n\n");
    if (end === -1) {
      stream.tail = text;
      return;
    }
    stream.tail = text.slice(end + 2);
    const complete = text.slice(0, end + 2);
    if (!stream.hello && complete.includes("event: hello")) {
      stream.hello = true;
      onHello();
    }
    for (const match of complete.matchAll(FRAME)) {
      const list = latencies.get(match[1]!) ?? [];
      list.push(now - Number(match[2]));
      latencies.set(match[1]!, list);
    }
  });
  socket.on("error", () => {});
  return stream;
}

async function open(base: string, path: string, token: string, count: number): Promise<number> {
  const url = new URL(base);
  const port = Number(url.port);
  // A few hundred connects at a time: more overflows the server's accept backlog and waits on SYN retries.
  const BATCH = 250;
  for (let start = 0; start < count; start += BATCH) {
    const size = Math.min(BATCH, count - start);
    await new Promise<void>((resolve) => {
      let left = size;
      const timer = setTimeout(resolve, 30_000);
      for (let i = 0; i < size; i++)
        streams.push(
          openOne(url.hostname, port, path, token, () => {
            left -= 1;
            if (left === 0) {
              clearTimeout(timer);
              resolve();
            }
          }),
        );
    });
  }
  return streams.filter((stream) => stream.hello).length;
}

async function collect(eventId: string): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  const open = streams.filter((stream) => stream.hello && !stream.socket.destroyed).length;
  while ((latencies.get(eventId)?.length ?? 0) < open && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const found = latencies.get(eventId) ?? [];
  latencies.delete(eventId);
  return found;
}

process.on("message", (message: { type: string; [key: string]: unknown }) => {
  if (message.type === "open") {
    const { base, path, token, count } = message as unknown as {
      base: string;
      path: string;
      token: string;
      count: number;
    };
    void open(base, path, token, count).then((opened) => send({ type: "ready", open: opened }));
  } else if (message.type === "collect") {
    void collect(message.eventId as string).then((found) => send({ type: "collected", latencies: found }));
  } else if (message.type === "close") {
    for (const stream of streams) stream.socket.destroy();
    process.exit(0);
  }
});
send({ type: "started" });
