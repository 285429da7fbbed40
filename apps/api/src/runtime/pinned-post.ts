import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { pinnedLookup } from "./pinned-connect.ts";

export interface PinnedPostOptions {
  /**
   * The addresses the host was checked to resolve to: the connection goes only to them (`pinnedLookup`),
   * whatever the name resolves to by now, so a name checked as public cannot be re-pointed at a private
   * address between the check and the call. Null connects as the system resolves (dev mode).
   */
  addresses: string[] | null;
  timeoutMs: number;
}

/**
 * POSTs `body` to `url` (http or https; TLS still verifies the certificate against the URL's host name)
 * and answers the response status once its head arrives, the body discarded. No redirects are followed.
 * Rejects on a connection failure or when `timeoutMs` passes.
 */
export function postPinned(
  url: URL,
  body: string,
  headers: Record<string, string>,
  options: PinnedPostOptions,
): Promise<number> {
  const lookup = options.addresses === null ? undefined : pinnedLookup(options.addresses);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup,
        // A connection of its own: a pooled socket was opened under another lookup (or none).
        agent: false,
        signal: AbortSignal.timeout(options.timeoutMs),
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
