import type { RequestListener, ServerResponse } from "node:http";
import { Problem } from "@fleet/contracts";
import { requestIdOf } from "./responses.ts";

/** Never counted nor refused: a load balancer must see an instance at its ceiling as alive and ready. */
const UNCOUNTED = new Set(["/healthz", "/readyz", "/metrics"]);

const LEAVE = Symbol("leave the in-flight count");

/**
 * Stops counting a request that became a stream: it holds its connection for minutes or hours, and has
 * its own ceiling (the subscriber cap), so it must not occupy a slot of the ceiling meant for requests.
 */
export function leaveInFlight(response: ServerResponse): void {
  (response as ServerResponse & { [LEAVE]?: () => void })[LEAVE]?.();
}

/**
 * The instance's ceiling on requests in flight: past `max` requests being answered at once, a request is
 * refused with 429 `UZ-API-001` and `Retry-After: 1` before anything reads it. Long polls count while they
 * wait; a live-tail stream counts until it starts (`leaveInFlight`). The count is this instance's own:
 * the ceiling protects the process, not a tenant's quota. A `max` of 0 is no ceiling.
 */
export function limitInFlight(
  listener: RequestListener,
  max: number,
  docsUrl: string,
  onRefusal: () => void = () => {},
): RequestListener {
  if (max === 0) return listener;
  let inFlight = 0;
  return (request, response) => {
    const url = request.url ?? "";
    const query = url.indexOf("?");
    if (UNCOUNTED.has(query === -1 ? url : url.slice(0, query))) return listener(request, response);
    if (inFlight >= max) {
      onRefusal();
      const problem = new Problem("UZ-API-001", {
        detail: "This instance is answering as many requests as it takes; retry in 1 s.",
      });
      const body = JSON.stringify(problem.toBody(requestIdOf(response), docsUrl));
      // The body is not read: the connection closes after this answer rather than parse it.
      response.writeHead(429, {
        "content-type": "application/problem+json; charset=utf-8",
        "retry-after": "1",
        "cache-control": "no-store",
        connection: "close",
      });
      response.end(body);
      return;
    }
    inFlight += 1;
    let counted = true;
    const done = () => {
      if (!counted) return;
      counted = false;
      inFlight -= 1;
    };
    response.on("close", done);
    (response as ServerResponse & { [LEAVE]?: () => void })[LEAVE] = done;
    listener(request, response);
  };
}
