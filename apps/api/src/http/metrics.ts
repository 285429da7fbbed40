import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Problem } from "@fleet/contracts";
import type { FastifyInstance } from "fastify";
import { ConfigError } from "../env.ts";
import { newRequestId } from "../runtime/ids.ts";
import type { Metrics } from "../runtime/metrics.ts";
import type { Tracing } from "../runtime/tracing.ts";
import { REQUEST_ID, type RequestObserver, ROUTE, requestIdOf } from "./responses.ts";

export const METRICS_PATH = "/metrics";
/** The route label of a request no route took (or refused before routing): never its raw path. */
export const UNMATCHED = "unmatched";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Checks a scrape's `Authorization: Bearer <token>` against the configured token, in time that does not
 * depend on where they differ (both are hashed first, so their lengths do not show either). Throws 401.
 */
export function scrapeGuard(token: string): (authorization: string | undefined) => void {
  const expected = digest(token);
  return (authorization) => {
    if (authorization === undefined)
      throw new Problem("UZ-AUTH-001", {
        detail: "/metrics needs the scrape token as a bearer credential.",
        headers: { "www-authenticate": 'Bearer realm="metrics"' },
      });
    const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? "";
    if (!timingSafeEqual(digest(given), expected))
      throw new Problem("UZ-AUTH-002", {
        detail: "The scrape token does not match.",
        headers: { "www-authenticate": 'Bearer realm="metrics"' },
      });
  };
}

/** `GET /metrics` on the API's own port, for a scraper presenting the token. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string): void {
  const guard = scrapeGuard(token);
  app.get(METRICS_PATH, async (request, reply) => {
    guard(request.headers.authorization);
    const text = await metrics.scrape();
    return reply.type(metrics.contentType).header("cache-control", "no-store").send(text);
  });
}

function sendProblem(response: ServerResponse, problem: Problem, docsUrl: string, head: boolean): void {
  const body = JSON.stringify(problem.toBody(requestIdOf(response), docsUrl));
  response.writeHead(problem.status, {
    ...problem.headers,
    "content-type": "application/problem+json; charset=utf-8",
    "cache-control": "no-store",
  });
  response.end(head ? undefined : body);
}

/**
 * A listener of its own serving only `GET /metrics` (the token too, when one is configured); every other
 * path is a 404 problem, every other method a 405. Nothing of the API is reachable through it.
 */
export function serveMetricsAddress(
  metrics: Metrics,
  options: { host: string; port: number; token: string | null; docsUrl: string },
): Promise<Server> {
  const guard = options.token === null ? null : scrapeGuard(options.token);
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const head = request.method === "HEAD";
    (response as ServerResponse & { [REQUEST_ID]?: string })[REQUEST_ID] = newRequestId();
    const path = (request.url ?? "").split("?")[0];
    try {
      if (path !== METRICS_PATH)
        throw new Problem("UZ-REQ-004", { detail: `No route matches ${request.method} ${path}.` });
      if (request.method !== "GET" && !head)
        throw new Problem("UZ-REQ-005", {
          detail: `${METRICS_PATH} does not take ${request.method}; it takes GET.`,
          headers: { allow: "GET" },
        });
      guard?.(request.headers.authorization);
    } catch (error) {
      sendProblem(response, error as Problem, options.docsUrl, head);
      return;
    }
    metrics.scrape().then(
      (text) => {
        response.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store" });
        response.end(head ? undefined : text);
      },
      () =>
        sendProblem(
          response,
          new Problem("UZ-INTERNAL-001", { detail: "The metrics could not be collected." }),
          options.docsUrl,
          head,
        ),
    );
  });
  return new Promise((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE" || error.code === "EADDRNOTAVAIL" || error.code === "EACCES"
          ? new ConfigError(
              `invalid configuration: FLEET_METRICS_ADDRESS ${options.host}:${options.port} cannot be listened on (${error.code})`,
            )
          : error,
      );
    server.once("error", refuse);
    server.listen(options.port, options.host, () => {
      server.off("error", refuse);
      resolve(server);
    });
  });
}

/**
 * What the metrics and the request spans are told of each answered request. The route is the pattern
 * the answering route set (`/v1/workspaces/:workspace_id/fleets`, `/trpc/fleets.list`), or the path of
 * a route without parameters (`/healthz`), or `unmatched`: a raw path would name ids and let any caller
 * mint label values.
 */
export function requestObserver(
  metrics: Metrics | null,
  tracing: Tracing | null,
  staticPaths: ReadonlySet<string>,
): RequestObserver {
  return (response, ms, status) => {
    const request = response.req;
    const method = request.method ?? "";
    let route = response[ROUTE];
    if (route === undefined) {
      const url = request.url ?? "";
      const query = url.indexOf("?");
      const path = query === -1 ? url : url.slice(0, query);
      route = staticPaths.has(path) ? path : UNMATCHED;
    }
    metrics?.request(method, route, status, ms / 1000);
    if (tracing !== null) {
      const endMs = performance.timeOrigin + performance.now();
      const traceparent = request.headers.traceparent;
      tracing.request({
        method,
        route,
        status,
        requestId: requestIdOf(response),
        startMs: endMs - ms,
        endMs,
        traceparent: typeof traceparent === "string" ? traceparent : undefined,
      });
    }
  };
}
