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
