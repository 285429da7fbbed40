import type { RequestListener, Server } from "node:http";
import type { FastifyInstance } from "fastify";
import type { RateLimits } from "../auth/rate-limits.ts";
import type { Config } from "../env.ts";
import type { Tracing } from "../runtime/tracing.ts";
import type { EventStreams } from "./event-stream.ts";

/** Set once a shutdown begins: readiness then answers 503, and every answer closes its connection. */
export interface DrainState {
  draining: boolean;
}

/** What a shutdown stops, in its order. */
export interface ShutdownParts {
  app: FastifyInstance;
  /** The live-tail streams, ended with a reconnect hint before the listener closes. */
  streams: EventStreams;
  /**
   * The services' background (`createServiceContext`'s wiring): long polls answered at the drain, the rest
   * stopped after the requests.
   */
  background: { drain(): void; stop(): Promise<void> };
  limits: RateLimits | null;
  tracing: Tracing | null;
  /** Closed last, so a scrape still reads the instance while it drains. */
  metricsServer: Server | null;
}

export interface Stopping {
  /**
   * Stops the instance gracefully (docs/deploy.md, "Shutdown"): drains (readiness 503, every response
   * closes its connection, long polls answered now), keeps accepting for `delayMs` so a load balancer
   * takes it out of rotation, closes the listener, lets requests in flight finish for up to `graceMs`,
   * then stops the scheduler and the notification listeners. The database is the caller's to close.
   * Called again, it returns the first call's promise.
   */
  shutdown(options?: { delayMs?: number; graceMs?: number }): Promise<void>;
  /** `shutdown` without the delay. */
  close(): Promise<void>;
}

/**
 * Draining, every answer closes its connection: a client's next request dials again, and the load
 * balancer sends it to an instance that is not going away.
 */
export function closingWhileDraining(state: DrainState, listener: RequestListener): RequestListener {
  return (request, response) => {
    if (state.draining) response.setHeader("connection", "close");
    listener(request, response);
  };
}

/** The instance's shutdown, once: `delayMs` and `graceMs` default to the configuration's. */
export function gracefulShutdown(
  state: DrainState,
  parts: ShutdownParts,
  defaults: Config["shutdown"],
): Stopping {
  let stopped: Promise<void> | null = null;
  const stop = async (delayMs: number, graceMs: number) => {
    const { app, streams, background, limits, tracing, metricsServer } = parts;
    state.draining = true;
    background.drain();
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    // The listener closes (the server may be main's, which Fastify did not start, so it is closed here);
    // `close` calls back once every connection has ended. A connection kept alive ends as soon as it is
    // idle (its request in flight before the drain answered without `connection: close`); past the grace
    // period the connections still open (a request that would not finish) are cut.
    // Streams end now with a reconnect hint (a client resumes on another instance with Last-Event-ID);
    // the listener's close waits for every connection, and a stream's would never end by itself.
    streams.closeAll();
    const server = app.server;
    const ended = new Promise<void>((resolve) => server.close(() => resolve()));
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    try {
      await ended;
      await app.close();
    } finally {
      clearInterval(idle);
      clearTimeout(cut);
    }
    // After the requests: one still in flight may push a schedule to the scheduler.
    await background.stop();
    await limits?.limiter.close();
    await tracing?.close();
    // Last, so a scrape still reads the instance while it drains.
    metricsServer?.close();
    metricsServer?.closeAllConnections();
  };
  return {
    shutdown(options = {}) {
      stopped ??= stop(options.delayMs ?? defaults.delayMs, options.graceMs ?? defaults.graceMs);
      return stopped;
    },
    close() {
      stopped ??= stop(0, defaults.graceMs);
      return stopped;
    },
  };
}
