import type { HttpMethod } from "@fleet/contracts";
import type { z } from "zod";
import { backoffDelay, sleep } from "./backoff.ts";
import type { Logger } from "./log.ts";

/** What a call needs of an operation: an operation from `@fleet/contracts` is one. */
export interface Route {
  method: HttpMethod;
  /** `/v1/…` with `{param}` placeholders. */
  path: string;
  /** Parses the success body. */
  output: z.ZodType;
}

/** A refusal: the status and the problem document's `error_code`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly problem: Record<string, unknown>,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`${status} ${code ?? "(no error code)"}: ${String(problem.detail ?? problem.title ?? "")}`);
    this.name = "ApiError";
  }
}

/** The service could not be reached or did not answer. `unsent`: the request surely never arrived. */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly unsent: boolean,
  ) {
    super(message);
    this.name = "NetworkError";
  }
}

/**
 * When a failed call is tried again. `idempotent`: after network errors, 429 and 5xx. `unsent`: only when
 * the request cannot have taken effect (connection refused, 429, 503), for calls that must not happen twice.
 */
export type RetryPolicy = "idempotent" | "unsent" | "none";

export interface CallOptions {
  token: string;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  /** Request headers beyond the token (e.g. `fleet-fencing-token` on a fenced read). */
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  /** Tries in all, the first included. */
  attempts?: number;
  /** How long one try may take before it counts as a network error. */
  timeoutMs?: number;
}

const unsentCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, 60_000) : undefined;
}

function shouldRetry(error: unknown, policy: RetryPolicy): boolean {
  if (policy === "none") return false;
  if (error instanceof NetworkError) return policy === "idempotent" || error.unsent;
  if (error instanceof ApiError) {
    if (policy === "unsent") return error.status === 429 || error.status === 503;
    return error.status === 429 || error.status >= 500;
  }
  return false;
}

/** Plain fetch against the /v1 surface, with bearer credentials, problem parsing and jittered retries. */
export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly log: Logger,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async call<T = unknown>(route: Route, options: CallOptions): Promise<T> {
    const attempts = options.attempts ?? 5;
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.once(route, options)) as T;
      } catch (error) {
        if (
          options.signal?.aborted ||
          attempt + 1 >= attempts ||
          !shouldRetry(error, options.retry ?? "idempotent")
        )
          throw error;
        const delay = (error instanceof ApiError ? error.retryAfterMs : undefined) ?? backoffDelay(attempt);
        this.log.debug("retrying", {
          method: route.method,
          route: route.path,
          attempt: attempt + 1,
          error: error instanceof Error ? error.message : String(error),
          delay_ms: delay,
        });
        await sleep(delay, options.signal);
      }
    }
  }

  private async once(route: Route, options: CallOptions): Promise<unknown> {
    const url = new URL(fillPath(route.path, options.params), `${this.baseUrl}/`);
    for (const [name, value] of Object.entries(options.query ?? {}))
      url.searchParams.set(name, String(value));
    const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      ...options.headers,
      authorization: `Bearer ${options.token}`,
    };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method: route.method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const code = cause?.code ?? (timeout.aborted ? "timeout" : (cause?.message ?? "unknown"));
      throw new NetworkError(`${route.method} ${route.path} failed: ${code}`, unsentCodes.has(code));
    }
    const text = await response.text().catch(() => "");
    if (!response.ok) {
      let problem: Record<string, unknown> = {};
      try {
        problem = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not a problem document (a proxy's page, say): status alone
      }
      const code = typeof problem.error_code === "string" ? problem.error_code : undefined;
      throw new ApiError(response.status, code, problem, retryAfter(response.headers.get("retry-after")));
    }
    if (response.status === 204 || text === "") return undefined;
    const body: unknown = JSON.parse(text);
    return route.output.parse(body);
  }
}
