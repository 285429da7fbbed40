/** How long the console waits for any API answer before it says the API is not answering. */
export const REQUEST_TIMEOUT_MS = 15_000;

export type UnansweredKind = "timeout" | "network" | "not_json";

/**
 * The API gave no usable answer: it did not answer in time, could not be reached, or something between
 * (the console's proxy, a load balancer) answered in its place with a page that is no problem document.
 * The request may still have reached the API and been done there.
 */
export class ApiUnanswered extends Error {
  readonly kind: UnansweredKind;
  readonly httpStatus: number | undefined;
  constructor(kind: UnansweredKind, httpStatus?: number) {
    super(
      kind === "timeout"
        ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
        : kind === "network"
          ? "the network request failed"
          : `HTTP ${httpStatus} without a JSON body`,
    );
    this.name = "ApiUnanswered";
    this.kind = kind;
    this.httpStatus = httpStatus;
  }
}

/** The ApiUnanswered behind an error, however many wrappers (tRPC's client error) it sits in. */
export function unansweredOf(error: unknown): ApiUnanswered | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    if (current instanceof ApiUnanswered) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * `fetch` with the console's client timeout, turning an answer that is not JSON into an ApiUnanswered
 * rather than letting a JSON parser report "Unexpected token 'I'". A caller's own abort (a query that
 * is no longer wanted) stays an abort.
 */
export async function apiFetch(
  input: RequestInfo | URL,
  init: RequestInit = {},
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const outer = init.signal;
  const forward = () => controller.abort();
  if (outer?.aborted) controller.abort();
  outer?.addEventListener("abort", forward, { once: true });
  try {
    const response = await fetch(input, { ...init, signal: controller.signal });
    const type = response.headers.get("content-type") ?? "";
    if (!/json/i.test(type)) throw new ApiUnanswered("not_json", response.status);
    // The timer keeps running while the caller reads the body: a body that stalls is no answer either.
    return response;
  } catch (error) {
    clearTimeout(timer);
    if (error instanceof ApiUnanswered) throw error;
    if (timedOut) throw new ApiUnanswered("timeout");
    if (outer?.aborted) throw error;
    throw new ApiUnanswered("network");
  }
}
