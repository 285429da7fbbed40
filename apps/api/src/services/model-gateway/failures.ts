import { Problem } from "@fleet/contracts";

/** The longest part of a vendor's own message a problem carries. */
const MESSAGE_MAX = 1000;

/** Removes the key from anything the vendor says before it travels on (a vendor may echo it). */
export function scrub(text: string, apiKey: string | null): string {
  return apiKey === null || apiKey === "" ? text : text.split(apiKey).join("[redacted]");
}

/**
 * Scrubs a text that arrives in pieces (a stream's network reads): a key cut between two pieces is still
 * replaced whole. A piece's end that could begin the key is held back for the next piece (or `end`); any
 * other end goes on at once, so a stream's pieces are not delayed unless they end in something key-like.
 */
export interface PieceScrubber {
  /** The piece, scrubbed, less a held-back end that could begin the key. */
  next(piece: string): string;
  /** What is held back, at the stream's end. */
  end(): string;
}

export function pieceScrubber(apiKey: string | null): PieceScrubber {
  if (apiKey === null || apiKey === "") return { next: (piece) => piece, end: () => "" };
  const first = apiKey[0]!;
  let held = "";
  return {
    next(piece) {
      let text = held === "" ? piece : held + piece;
      held = "";
      if (text.includes(apiKey)) text = text.split(apiKey).join("[redacted]");
      // Only the last key.length - 1 characters can be the start of a key the next piece completes.
      for (let at = text.indexOf(first, Math.max(0, text.length - apiKey.length + 1)); at !== -1; ) {
        if (apiKey.startsWith(text.slice(at))) {
          held = text.slice(at);
          return text.slice(0, at);
        }
        at = text.indexOf(first, at + 1);
      }
      return text;
    },
    end() {
      const rest = held;
      held = "";
      return rest;
    },
  };
}

/** The vendor's own message in an OpenAI error body (`{error: {message}}`), else its text, cut short. */
function vendorMessage(body: string, apiKey: string | null): string {
  let message = body;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
    const error = parsed.error;
    if (typeof error === "string") message = error;
    else if (typeof error?.message === "string") message = error.message;
  } catch {
    // not JSON: its text
  }
  return scrub(message, apiKey).slice(0, MESSAGE_MAX);
}

/** A Retry-After a client may trust: whole seconds, 1..3600; else 1. */
function retryAfter(value: string | null): string {
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 1) return String(Math.min(3600, Math.ceil(seconds)));
  const at = value === null ? Number.NaN : Date.parse(value);
  if (Number.isFinite(at)) return String(Math.max(1, Math.min(3600, Math.ceil((at - Date.now()) / 1000))));
  return "1";
}

/** The problem a vendor's refusal becomes (docs/decisions/model-gateway.md); never a 500. */
export function vendorRefusal(
  status: number,
  headers: Headers,
  body: string,
  apiKey: string | null,
  provider: string,
): Problem {
  if (status === 429) {
    const after = retryAfter(headers.get("retry-after"));
    return new Problem("UZ-MODEL-004", {
      detail: `The ${provider} provider is rate limiting this key; retry after ${after} s.`,
      headers: { "retry-after": after },
    });
  }
  if (status === 401 || status === 403) {
    return new Problem("UZ-MODEL-005", {
      detail: `The ${provider} provider refused the configured key (${status}); fix the provider settings.`,
    });
  }
  if (status >= 400 && status < 500) {
    return new Problem("UZ-MODEL-006", {
      detail: `The ${provider} provider refused the request (${status}): ${vendorMessage(body, apiKey)}`,
    });
  }
  return new Problem("UZ-MODEL-002", {
    detail: `The ${provider} provider answered ${status}.`,
  });
}

/** The problem a failed fetch becomes: the deadline is 504, anything else (refused, reset, DNS) 502. */
export function unreachable(error: unknown, provider: string): Problem {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "TimeoutError") {
    return new Problem("UZ-MODEL-003", {
      detail: `The ${provider} provider did not answer within the deadline.`,
    });
  }
  return new Problem("UZ-MODEL-002", { detail: `The ${provider} provider could not be reached.` });
}
