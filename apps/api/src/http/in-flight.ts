import type { RequestListener, ServerResponse } from "node:http";
import { Problem } from "@fleet/contracts";
import { fleetResponse, type InFlightCount, requestIdOf } from "./responses.ts";

/** Never counted nor refused: a load balancer must see an instance at its ceiling as alive and ready. */
const UNCOUNTED = ["/healthz", "/readyz", "/metrics"];

/** Whether `url` (a path with its query) is one of the uncounted paths: no slicing, no hashing. */
function uncounted(url: string): boolean {
  for (const path of UNCOUNTED) {
    if (url.startsWith(path) && (url.length === path.length || url[path.length] === "?")) return true;
  }
  return false;
}

/**
 * Stops counting a request that became a stream: it holds its connection for minutes or hours, and has
 * its own ceiling (the subscriber cap), so it must not occupy a slot of the ceiling meant for requests.
 */
export function leaveInFlight(response: ServerResponse): void {
  fleetResponse(response).leaveInFlight();
}

/**
 * The instance's ceiling on requests in flight: past `max` requests being answered at once, a request is
 * refused with 429 `UZ-API-001` and `Retry-After: 1` before anything reads it. Long polls count while they
 * wait; a live-tail stream counts until it starts (`leaveInFlight`). The count is this instance's own:
 * the ceiling protects the process, not a tenant's quota. A `max` of 0 is no ceiling. The responses
 * (built by `Responses`) give their places back as they end or their connections close.
 */
export function limitInFlight(
  listener: RequestListener,
  max: number,
  docsUrl: string,
  onRefusal: () => void = () => {},
): RequestListener {
  if (max === 0) return listener;
  const inFlight: InFlightCount = { count: 0 };
  return (request, response) => {
    if (uncounted(request.url ?? "")) return listener(request, response);
    if (inFlight.count >= max) {
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
    fleetResponse(response).holdInFlight(inFlight);
    listener(request, response);
  };
}
