import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";
// The error registry alone, not the contracts' barrel: the server that answers while starting is loaded
// before the rest of the bundle (main.ts).
import { Problem } from "@fleet/contracts/errors";
import { type Responses, requestIdOf } from "./responses.ts";

/** What `/healthz` answers, while starting and after. */
export const HEALTHY = { status: "ok", version: "1.0.0" } as const;

/** Node's default is 16 KiB too; named here because the spec's 431 depends on it. */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * How long an idle keep-alive connection is kept: Fastify's own default, which its `serverFactory` (ours)
 * leaves unset, so it was Node's 5 s, the same as the idle timeout of Node's agents (the console's proxy):
 * a proxy reusing a connection the API was closing at that instant got ECONNRESET (an e2e delete met it).
 * Longer than every caller's idle timeout, the caller always closes first.
 */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * The API's HTTP server: header blocks up to 16 KiB, idle connections kept 72 s, and every response built
 * by `responses` (request id, access line, the 499 line of an answer its connection closed on).
 */
export function createHttpServer(responses: Responses, listener: RequestListener): Server {
  const options = {
    maxHeaderSize: MAX_HEADER_BYTES,
    ServerResponse: responses.Response,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
  };
  return responses.watch(createServer(options, listener));
}

/**
 * The API's HTTP server, listening before the service behind it is ready. While the database opens and
 * migrates: `/healthz` answers 200 (the process is up: liveness), `/readyz` answers 503 `UZ-INTERNAL-002`
 * (not ready to serve), and every other request waits and is served once the service is ready, rather
 * than being refused. A start that fails ends the process, and with it the waiting connections.
 */
export class StartingServer {
  readonly server: Server;
  #listener: RequestListener | null = null;
  #serving = false;
  #waiting: [IncomingMessage, ServerResponse][] = [];

  constructor(
    private readonly docsUrl: string,
    readonly responses: Responses,
  ) {
    this.server = createHttpServer(responses, (request, response) => {
      if (this.#serving) this.#listener!(request, response);
      else this.#whileStarting(request, response);
    });
  }

  listen(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
  }

  /** Hands the server to the service's listener (Fastify's `serverFactory` calls this). */
  attach(listener: RequestListener): Server {
    this.#listener = listener;
    return this.server;
  }

  /** The service is ready: serve the requests that waited, then every request as it comes. */
  open(): void {
    if (this.#listener === null) throw new Error("no listener attached");
    this.#serving = true;
    for (const [request, response] of this.#waiting.splice(0)) this.#listener(request, response);
  }

  #whileStarting(request: IncomingMessage, response: ServerResponse): void {
    const path = request.url?.split("?")[0];
    if (path === "/healthz" || path === "/readyz") {
      const id = requestIdOf(response);
      const [status, type, body] =
        path === "/healthz"
          ? [200, "application/json; charset=utf-8", HEALTHY]
          : [
              503,
              "application/problem+json; charset=utf-8",
              new Problem("UZ-INTERNAL-002", { detail: "The service is starting." }).toBody(id, this.docsUrl),
            ];
      response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
      response.end(request.method === "HEAD" ? undefined : JSON.stringify(body));
      return;
    }
    this.#waiting.push([request, response]);
    response.once("close", () => {
      const at = this.#waiting.findIndex(([, waiting]) => waiting === response);
      if (at !== -1) this.#waiting.splice(at, 1);
    });
  }
}
