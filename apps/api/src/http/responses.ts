import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type Server,
  ServerResponse,
} from "node:http";
import type { Socket } from "node:net";
import { hostname } from "node:os";
import { newRequestId } from "../runtime/ids.ts";

/** Set on a raw response by the route that answers it: the pattern to log instead of the path. */
export const ROUTE = Symbol("fleet.route");
/** The request id, set on the raw request and its response as the request arrives. */
export const REQUEST_ID = Symbol("fleet.requestId");
/** The caller's own `X-Request-Id`, when it is a sane one: kept beside the server's id, never in its place. */
export const CLIENT_REQUEST_ID = Symbol("fleet.clientRequestId");

/** Told of every answered request: see `Responses.observe`. */
export type RequestObserver = (
  response: ServerResponse & { [ROUTE]?: string },
  ms: number,
  status: number,
) => void;

export type TaggedRequest = IncomingMessage & { [REQUEST_ID]?: string; [CLIENT_REQUEST_ID]?: string };

/** The instance's count of requests being answered (`limitInFlight`): an answer holds a place until it ends. */
export interface InFlightCount {
  count: number;
}

/** Where an answer's rate-limit headers come from: the bucket its request spent a token of. */
export interface RateLimitHeaderSource {
  /** Sets `RateLimit-Limit`, `-Remaining` and `-Reset` on the headers an answer is written with, if due. */
  writeAdmittedHeaders(headers: Record<string, unknown>): void;
}

/** What `Responses` adds to every raw response: see `holdInFlight`, `leaveInFlight`, `countedAgainst`. */
export interface FleetResponseExtras {
  holdInFlight(count: InFlightCount): void;
  leaveInFlight(): void;
  countedAgainst(bucket: RateLimitHeaderSource): void;
}
type TaggedResponse = ServerResponse & { [ROUTE]?: string; [REQUEST_ID]: string; req: TaggedRequest };

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const PINO_INFO = 30;
/** The status an access line gives an answer its client closed the connection on (nginx's 499). */
const CLIENT_CLOSED = 499;

/**
 * The class the API's HTTP server builds every response from (`createServer({ ServerResponse })`), so
 * that every answer (routes, refusals, the tRPC adapter, the answers given while starting) carries its
 * request id and writes its access line without any per-request hook:
 *
 * - **Request id.** The server mints its own UUIDv7 for every request; a caller's `X-Request-Id` never
 *   replaces it (a caller could otherwise give its request another's id in the logs and the audit log).
 *   The caller's, when it matches `[A-Za-z0-9._:-]{1,128}`, is kept beside it (`clientRequestIdOf`, the
 *   access line's `clientReqId`, the audit row's `client_request_id`); any other is dropped. The server's
 *   id is added to the header object the answer is written with: set with `setHeader` beforehand, it
 *   would push every later header through Node's slow merging path.
 * - **Access log.** One pino-format JSON line per answered request (`level`, `time`, `pid`, `hostname`,
 *   `reqId`, `method`, `route`, `status`, `ms`, `msg: "request"`), written as the response ends. Fastify's
 *   onResponse hook made every request add and remove two listeners and stay alive for the garbage
 *   collector to copy. Only the route is escaped: the request id, the method (one the HTTP parser knows)
 *   and the numbers never need it. An answer whose connection closes before it ends is logged with status 499.
 * - **Observer.** The metrics and the request spans are told of each answer at the same moment
 *   (`observe`), with the same route, status and duration.
 * - **In flight.** An answer counted against the instance's ceiling (`holdInFlight`) gives its place back
 *   as it ends or its connection closes, from the same two moments: no listener per request.
 * - **Rate limits.** An answer whose request spent a bucket's token (`countedAgainst`) is written with the
 *   bucket's RateLimit-* headers once half the bucket is spent, whatever answers it (the route, a refusal
 *   further on), added with the request id rather than through the framework's per-header path.
 */
export class Responses {
  readonly Response: typeof ServerResponse;
  #write: ((line: string) => void) | null = null;
  #observe: RequestObserver | null = null;
  readonly #prefix = `{"level":${PINO_INFO},"time":`;
  readonly #origin = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":"`;

  constructor() {
    const responses = this;
    class FleetResponse extends ServerResponse {
      readonly [REQUEST_ID]: string;
      readonly #startedAt = performance.now();
      #ended = false;
      #inFlight: InFlightCount | null = null;
      #rateLimit: RateLimitHeaderSource | null = null;

      constructor(request: TaggedRequest, options?: object) {
        // @ts-expect-error Node passes the server's response options (highWaterMark…); the types omit them.
        super(request, options);
        const id = newRequestId();
        this[REQUEST_ID] = id;
        request[REQUEST_ID] = id;
        const incoming = request.headers["x-request-id"];
        if (typeof incoming === "string" && SANE_REQUEST_ID.test(incoming))
          request[CLIENT_REQUEST_ID] = incoming;
      }

      // Written out parameter by parameter: a rest array, an object spread and `apply` here cost ~5 µs
      // a response, a quarter of a bare hello's.
      override writeHead(statusCode: number, reason?: unknown, headers?: unknown): this {
        const given = headers === undefined && typeof reason !== "string" ? reason : headers;
        if (typeof given === "object" && given !== null && !Array.isArray(given)) {
          const merged: Record<string, unknown> = { "x-request-id": this[REQUEST_ID] };
          this.#rateLimit?.writeAdmittedHeaders(merged);
          for (const name in given) {
            if (name !== "x-request-id") merged[name] = (given as Record<string, unknown>)[name];
          }
          return typeof reason === "string"
            ? super.writeHead(statusCode, reason, merged as OutgoingHttpHeaders)
            : super.writeHead(statusCode, merged as OutgoingHttpHeaders);
        }
        if (!this.hasHeader("x-request-id")) this.setHeader("x-request-id", this[REQUEST_ID]);
        if (this.#rateLimit !== null) {
          const limits: Record<string, unknown> = {};
          this.#rateLimit.writeAdmittedHeaders(limits);
          for (const name in limits) if (!this.hasHeader(name)) this.setHeader(name, limits[name] as string);
        }
        return typeof reason === "string"
          ? super.writeHead(
              statusCode,
              reason,
              given as OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined,
            )
          : super.writeHead(statusCode, given as OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined);
      }

      override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
        super.end(chunk as never, encoding as never, callback as never);
        this.leaveInFlight();
        if (!this.#ended && (responses.#write !== null || responses.#observe !== null)) {
          this.#ended = true;
          responses.#answered(this, performance.now() - this.#startedAt, this.statusCode);
        }
        return this;
      }

      /** The connection closed before this answer ended: its line says 499, as nginx logs it. */
      abandon(): void {
        this.leaveInFlight();
        if (this.#ended || this.writableEnded) return;
        if (responses.#write === null && responses.#observe === null) return;
        this.#ended = true;
        responses.#answered(this, performance.now() - this.#startedAt, CLIENT_CLOSED);
      }

      /** Takes a place in the instance's in-flight count, given back once (`leaveInFlight`). */
      holdInFlight(count: InFlightCount): void {
        count.count += 1;
        this.#inFlight = count;
      }

      /**
       * Gives the place back: as the answer ends or its connection closes, or earlier for a request that
       * became a stream (it holds its connection for hours, under its own cap).
       */
      leaveInFlight(): void {
        if (this.#inFlight === null) return;
        this.#inFlight.count -= 1;
        this.#inFlight = null;
      }

      countedAgainst(bucket: RateLimitHeaderSource): void {
        this.#rateLimit = bucket;
      }
    }
    this.Response = FleetResponse as unknown as typeof ServerResponse;
  }

  /**
   * Writes the access line of an answer whose client did not wait for it (a long poll given up, a client
   * timing out), when its connection closes with the answer unfinished. One listener per connection, on
   * the response Node has assigned to it, instead of one per request.
   */
  watch<S extends Server>(server: S): S {
    server.on("connection", (socket: Socket) => {
      socket.once("close", () => {
        const pending = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
        if (pending instanceof this.Response) (pending as unknown as { abandon(): void }).abandon();
      });
    });
    return server;
  }

  /** Starts writing access lines to `destination`; until then (and at levels above info) none are written. */
  logTo(destination: { write(line: string): void }): void {
    this.#write = (line) => destination.write(line);
  }

  /**
   * Hands every answered request to `observer` as it ends (metrics, request spans): its response (the
   * route set on it, its request), its duration in ms and its status (499 for one abandoned).
   */
  observe(observer: RequestObserver): void {
    this.#observe = observer;
  }

  #answered(response: TaggedResponse, ms: number, status: number): void {
    if (this.#write !== null) this.#record(response, ms, status);
    if (this.#observe !== null) this.#observe(response, ms, status);
  }

  #record(response: TaggedResponse, ms: number, status: number): void {
    const request = response.req;
    const route = response[ROUTE] ?? request.url?.split("?")[0] ?? "";
    // The caller's id passed SANE_REQUEST_ID, so it needs no escaping either.
    const client = request[CLIENT_REQUEST_ID];
    const clientField = client === undefined ? "" : `,"clientReqId":"${client}"`;
    this.#write!(
      `${this.#prefix}${Date.now()}${this.#origin}${response[REQUEST_ID]}"${clientField},"method":"${request.method}","route":${JSON.stringify(route)},"status":${status},"ms":${Math.round(ms)},"msg":"request"}\n`,
    );
  }
}

/** A raw response built by `Responses`, with what it adds. */
export function fleetResponse(response: ServerResponse): ServerResponse & FleetResponseExtras {
  return response as ServerResponse & FleetResponseExtras;
}

/** The caller's sane `X-Request-Id` of a request a `Responses` response answers; null when none was kept. */
export function clientRequestIdOf(request: IncomingMessage): string | null {
  return (request as TaggedRequest)[CLIENT_REQUEST_ID] ?? null;
}

/** The request id of a raw response built by `Responses`. */
export function requestIdOf(response: ServerResponse): string {
  return (response as TaggedResponse)[REQUEST_ID];
}
