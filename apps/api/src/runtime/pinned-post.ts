import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { KEEP_ALIVE, type PinnedAgentPool, pinnedLookup } from "./pinned-connect.ts";

export interface PinnedPostOptions {
  /**
   * The addresses the host was checked to resolve to: the connection goes only to them (`pinnedLookup`),
   * whatever the name resolves to by now, so a name checked as public cannot be re-pointed at a private
   * address between the check and the call. Null connects as the system resolves (dev mode).
   */
  addresses: string[] | null;
  timeoutMs: number;
  /**
   * Kept-alive connections, pinned to the addresses checked (dev mode's unchecked calls share one pair of
   * their own): a sender posting to the same receivers again and again (the webhook deliverer) pays for a
   * connection once. Without, each post opens a connection of its own.
   */
  agents?: PinnedAgentPool;
}

/** Dev mode's kept-alive agents: its addresses are not checked, so its connections are not pinned. */
const unpinned = { http: new HttpAgent(KEEP_ALIVE), https: new HttpsAgent(KEEP_ALIVE) };

/** What a receiver answered: its status, and the first bytes of its body (as many as were asked for). */
export interface PinnedAnswer {
  status: number;
  head: string;
}

/**
 * POSTs `body` to `url` (http or https; TLS still verifies the certificate against the URL's host name)
 * and answers the response status once its head arrives, the body discarded. No redirects are followed.
 * Rejects on a connection failure or when `timeoutMs` passes.
 */
export async function postPinned(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: PinnedPostOptions,
): Promise<number> {
  return (await postPinnedReading(url, body, headers, options, 0)).status;
}

/**
 * `postPinned` that also keeps the first `headBytes` bytes of the answer's body (UTF-8; a character cut at
 * the end is replaced): read until that many arrived or the body ended, then the connection is let go.
 * `timeoutMs` bounds the whole exchange, the body's first bytes included.
 */
export function postPinnedReading(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: PinnedPostOptions,
  headBytes: number,
): Promise<PinnedAnswer> {
  const lookup = options.addresses === null ? undefined : pinnedLookup(options.addresses);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const pair =
    options.agents === undefined
      ? undefined
      : options.addresses === null
        ? unpinned
        : options.agents.for(options.addresses);
  const agent = pair === undefined ? false : url.protocol === "https:" ? pair.https : pair.http;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        // The pinned agent's own lookup answers its connections; without one, a connection of its own (a
        // pooled socket was opened under another lookup, or none).
        ...(agent === false ? { lookup, agent } : { agent }),
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (headBytes === 0) {
          response.resume();
          resolve({ status, head: "" });
          return;
        }
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          resolve({ status, head: Buffer.concat(chunks).subarray(0, headBytes).toString("utf8") });
        };
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          if (kept >= headBytes) {
            done();
            response.destroy();
          }
        });
        response.on("end", done);
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
