import type { Server, ServerResponse } from "node:http";
import type { DatabaseHandle } from "@fleet/db";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import pino, { type Logger } from "pino";
import { Authenticator } from "./auth/authenticate.ts";
import { PrincipalCache } from "./auth/principal-cache.ts";
import { RateLimits } from "./auth/rate-limits.ts";
import type { Config } from "./env.ts";
import { answerClientError } from "./http/client-error.ts";
import { registerDocs } from "./http/docs.ts";
import { EventStreams } from "./http/event-stream.ts";
import { registerHealth } from "./http/health.ts";
import { limitInFlight } from "./http/in-flight.ts";
import { acceptEmptyJsonBodies, acceptFormBodies } from "./http/json-body.ts";
import { registerMetricsRoute, requestObserver, serveMetricsAddress } from "./http/metrics.ts";
import { registerNotFound } from "./http/not-found.ts";
import { buildOpenApiDocument } from "./http/openapi.ts";
import { requestContexts, requireBearer } from "./http/request-context.ts";
import { REQUEST_ID, Responses, ROUTE, type TaggedRequest } from "./http/responses.ts";
import { DEFAULT_BODY_LIMIT, registerRestRoutes } from "./http/rest.ts";
import { closingWhileDraining, type DrainState, gracefulShutdown, type Stopping } from "./http/shutdown.ts";
import { createHttpServer, type StartingServer } from "./http/starting-server.ts";
import { registerTrpcRoute } from "./http/trpc-route.ts";
import { newRequestId } from "./runtime/ids.ts";
import { LogDestination } from "./runtime/log-destination.ts";
import { errorLineOnly, loggedError } from "./runtime/log-errors.ts";
import { Metrics } from "./runtime/metrics.ts";
import { toProblem } from "./runtime/problems.ts";
import { PostgresBucketStore } from "./runtime/rate-limit-postgres.ts";
import { RedisBucketStore } from "./runtime/rate-limit-redis.ts";
import { type BucketStore, MemoryBucketStore, RateLimiter } from "./runtime/rate-limiter.ts";
import { REPLAY_SECONDS } from "./runtime/stream-hub.ts";
import type { Tracing } from "./runtime/tracing.ts";
import { createServiceContext } from "./service-context.ts";
import type { ServiceContext } from "./services/shared/context.ts";

/** The API, and its graceful `shutdown` and `close` (http/shutdown.ts). */
export interface App extends Stopping {
  app: FastifyInstance;
  log: Logger;
  services: ServiceContext;
  /** The listener of FLEET_METRICS_ADDRESS, serving only /metrics; null when none is configured. */
  metricsServer: Server | null;
  /** The live-tail streams this instance serves. */
  streams: EventStreams;
}

export interface AppOptions {
  /** Where log lines go (tests read them back); stdout when absent. */
  logStream?: { write(line: string): void };
  /** A server already listening (main's): the app serves on it once `open()` is called. */
  server?: StartingServer;
}

/** Builds the API on an open database: the `/v1` REST surface, `/trpc` for the console, docs and health. */
export async function createApp(
  config: Config,
  database: DatabaseHandle,
  options: AppOptions = {},
): Promise<App> {
  // First: an address that cannot be listened on stops the start before anything else has started.
  const { metrics, metricsServer } = await metricsFor(config);
  // The service's own logger, not Fastify's: Fastify would build a child logger for every request.
  const destination = options.logStream ?? new LogDestination();
  // No redaction pass (it costs more than the line itself): nothing logs headers, bodies or
  // credentials, and the test suite scans the log for keys and tokens.
  const log = pino(
    { level: config.logLevel, serializers: { err: loggedError }, hooks: { logMethod: errorLineOnly } },
    destination,
  );
  const cache = new PrincipalCache();
  const wiring = await createServiceContext(config, database, {
    log,
    metrics,
    tracing: true,
    secrets: true,
    principals: cache,
    chatDelivery: true,
    scheduler: true,
  });
  const { services } = wiring;
  const { now } = services;
  const tracing = services.tracing ?? null;
  const streams = new EventStreams(
    services.streams,
    { ...config.streams, replaySeconds: REPLAY_SECONDS },
    now,
  );
  cache.observe((tag) => streams.invalidated(tag));
  const responses = options.server?.responses ?? new Responses();
  if (log.isLevelEnabled("info")) responses.logTo(destination);
  const answerProblem = problemAnswerer(log, config.docsUrl);
  const limits = await rateLimitsFor(
    config,
    database,
    now,
    (error) => log.warn({ err: error }, "rate-limit store unreachable; admitting on this instance's count"),
    metrics,
  );
  const drain: DrainState = { draining: false };
  const app = createFastify(config, { server: options.server, responses, metrics, drain, answerProblem });
  instrument(app, responses, database, services, metrics, tracing);
  await wiring.start();
  const authenticator = new Authenticator(database.db, cache, services.sessions, (error) =>
    log.error({ err: error }, "background write failed"),
  );
  const contextFor = requestContexts({ services, authenticator, limits, log });

  app.removeContentTypeParser("text/plain");
  acceptEmptyJsonBodies(app);
  acceptFormBodies(app);
  app.setErrorHandler(answerProblem);
  registerNotFound(app, requireBearer(authenticator, now));
  registerHealth(app, { drain, database, scheduler: services.scheduler, log });
  const scrapeToken = config.metrics.token;
  if (metrics !== null && scrapeToken !== null) registerMetricsRoute(app, metrics, scrapeToken);
  registerDocs(app, () => buildOpenApiDocument(config.publicUrl));
  registerRestRoutes(app, contextFor(false), streams);
  await registerTrpcRoute(app, contextFor(true));

  const stopping = gracefulShutdown(
    drain,
    { app, streams, background: wiring, limits, tracing, metricsServer },
    config.shutdown,
  );
  return { app, log, services, metricsServer, streams, ...stopping };
}

/** The instance's metrics, and the listener of FLEET_METRICS_ADDRESS when one is configured. */
async function metricsFor(
  config: Config,
): Promise<{ metrics: Metrics | null; metricsServer: Server | null }> {
  const served = config.metrics;
  // Without a way to scrape them, metrics are not kept at all: the request path then pays nothing.
  const metrics = served.token !== null || served.address !== null ? new Metrics() : null;
  const metricsServer =
    metrics !== null && served.address !== null
      ? await serveMetricsAddress(metrics, {
          ...served.address,
          token: served.token,
          docsUrl: config.docsUrl,
        })
      : null;
  return { metrics, metricsServer };
}

/**
 * Answers a refusal with its problem body: errors the routes throw, and refusals the router answers
 * itself (a path that is not percent-encoded UTF-8, a path parameter over maxParamLength).
 */
function problemAnswerer(log: Logger, docsUrl: string) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    // Refused before its handler ran (a body too large, not JSON): still labelled by its route's pattern.
    const raw = reply.raw as ServerResponse & { [ROUTE]?: string };
    if (raw[ROUTE] === undefined && !request.is404) raw[ROUTE] = request.routeOptions.url;
    const problem = toProblem(error, (cause) =>
      log.error({ reqId: request.id, err: cause }, "request failed"),
    );
    return reply
      .code(problem.status)
      .headers(problem.headers)
      .type("application/problem+json")
      .send(problem.toBody(request.id, docsUrl));
  };
}

/**
 * Fastify on the API's HTTP server (main's, already listening, when given), behind the in-flight ceiling;
 * request ids, the body limit and client errors as every answer has them.
 */
function createFastify(
  config: Config,
  parts: {
    server: StartingServer | undefined;
    responses: Responses;
    metrics: Metrics | null;
    drain: DrainState;
    answerProblem: ReturnType<typeof problemAnswerer>;
  },
): FastifyInstance {
  return Fastify({
    frameworkErrors: parts.answerProblem,
    logger: false,
    // While closing, a request on a connection kept alive is still served (it is in flight as far as
    // its client knows); each answer then closes its connection (`closingWhileDraining`), so none lingers.
    return503OnClosing: false,
    // Who the client is (request.ip: the per-address buckets): the peer, unless it is a trusted proxy.
    trustProxy: config.trustedProxies.length === 0 ? false : config.trustedProxies,
    requestIdHeader: false,
    serverFactory: (handler) => {
      const limited = limitInFlight(handler, config.rateLimits.maxInFlight, config.docsUrl, () =>
        parts.metrics?.refused("in_flight"),
      );
      const closing = closingWhileDraining(parts.drain, limited);
      return parts.server?.attach(closing) ?? createHttpServer(parts.responses, closing);
    },
    genReqId: (request) => (request as TaggedRequest)[REQUEST_ID] ?? newRequestId(),
    bodyLimit: DEFAULT_BODY_LIMIT,
    routerOptions: { maxParamLength: 256 },
    clientErrorHandler: (error, socket) => answerClientError(error, socket, config.docsUrl),
  });
}

/**
 * Each answered request becomes a sample and a span; the pool, the streams and the pending gates are
 * read at each scrape. Registered before the routes: it learns their patterns as they are added.
 */
function instrument(
  app: FastifyInstance,
  responses: Responses,
  database: DatabaseHandle,
  services: ServiceContext,
  metrics: Metrics | null,
  tracing: Tracing | null,
): void {
  // Routes without parameters are their own route label; the rest are labelled by the pattern they set.
  const staticPaths = new Set<string>();
  app.addHook("onRoute", (route) => {
    if (!/[:*]/.test(route.url)) staticPaths.add(route.url);
  });
  if (metrics !== null || tracing !== null) responses.observe(requestObserver(metrics, tracing, staticPaths));
  if (metrics === null) return;
  metrics.observePool(() => database.poolUse());
  metrics.observeStreams(() => services.streams.stats());
  metrics.observePendingGates(async () => {
    const [row] = await database.query<{ pending: number }>(
      "select count(*)::int as pending from approval_gates where status = 'pending'",
    );
    return row?.pending ?? 0;
  }, services.now);
}

/**
 * The rate limits of the configuration: buckets shared through Redis when REDIS_URL is set, else through
 * the PostgreSQL database, else (the embedded database, one process) in process.
 */
async function rateLimitsFor(
  config: Config,
  database: DatabaseHandle,
  now: () => number,
  onStoreError: (error: unknown) => void,
  metrics: Metrics | null,
): Promise<RateLimits | null> {
  const settings = config.rateLimits;
  if (!settings.enabled) return null;
  const store: BucketStore =
    settings.redisUrl !== undefined
      ? await RedisBucketStore.open(settings.redisUrl, onStoreError)
      : database.kind === "postgres"
        ? new PostgresBucketStore(database)
        : new MemoryBucketStore(now);
  return new RateLimits(
    new RateLimiter(store, now, onStoreError),
    settings.windowMs,
    settings.workspace,
    settings.credential,
    settings.address,
    metrics === null ? undefined : (bucket) => metrics.refused(bucket),
  );
}
