import { request } from "node:http";

/** A live tail a bench holds open while it loads the API: it counts the frames of each kind it reads. */
export interface LiveTail {
  /** Frames read so far, by their `event:` name. */
  counts: Map<string, number>;
  close(): void;
}

/**
 * Opens a Server-Sent Events stream and counts its frames by name, without parsing their data: the
 * bench measures the API's publishing, not its own JSON parsing. Resolves once the `hello` frame has
 * arrived, so the tail is subscribed before the load starts.
 */
export function openLiveTail(url: string, headers: Record<string, string>): Promise<LiveTail> {
  return new Promise((resolve, reject) => {
    const counts = new Map<string, number>();
    const req = request(url, { headers: { ...headers, accept: "text/event-stream" } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`the stream answered ${response.statusCode}`));
        response.resume();
        return;
      }
      response.setEncoding("utf8");
      let rest = "";
      let subscribed = false;
      response.on("data", (chunk: string) => {
        const text = rest + chunk;
        let start = 0;
        for (let at = text.indexOf("event: ", start); at !== -1; at = text.indexOf("event: ", start)) {
          const end = text.indexOf("\n", at);
          if (end === -1) break;
          const name = text.slice(at + 7, end);
          counts.set(name, (counts.get(name) ?? 0) + 1);
          start = end + 1;
          if (name === "hello" && !subscribed) {
            subscribed = true;
            resolve({ counts, close: () => req.destroy() });
          }
        }
        rest = text.slice(start);
      });
    });
    req.on("error", (error) => {
      if (counts.size === 0) reject(error);
    });
    req.end();
  });
}

/**
 * Opens a live tail and hands each frame that carries data (a named kind, not `hello`), parsed, to
 * `onFrame` with its receipt time (`performance.now()` and the wall clock, for the frame's `at`).
 * Resolves once `hello` has arrived: the tail is subscribed.
 */
export function openFrameTail<Frame>(
  url: string,
  token: string,
  onFrame: (kind: string, frame: Frame, now: number, wall: number) => void,
): Promise<{ close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } });
    req.on("response", (response) => {
      if (response.statusCode !== 200) return reject(new Error(`the tail answered ${response.statusCode}`));
      response.setEncoding("utf8");
      let rest = "";
      response.on("data", (piece: string) => {
        const now = performance.now();
        const wall = Date.now();
        const blocks = (rest + piece).split("\n\n");
        rest = blocks.pop() ?? "";
        for (const block of blocks) {
          const lines = block.split("\n");
          const kind = lines.find((line) => line.startsWith("event: "))?.slice(7);
          if (kind === "hello") resolve({ close: () => req.destroy() });
          const data = lines.find((line) => line.startsWith("data: "));
          if (kind === undefined || kind === "hello" || data === undefined) continue;
          onFrame(kind, JSON.parse(data.slice(6)) as Frame, now, wall);
        }
      });
    });
    req.on("error", reject);
    req.end();
  });
}
