import { Problem } from "@fleet/contracts";
import { PinnedDispatchers } from "../../runtime/pinned-connect.ts";
import { ANTHROPIC_VERSION, toAnthropic } from "./anthropic-request.ts";
import { unreachable, vendorRefusal } from "./failures.ts";
import type { Target } from "./resolve.ts";

/** A vendor's answer whose head arrived with a 2xx, and the deadline watching the rest of it. */
export interface Forwarded {
  response: Response;
  /** Restarts the deadline: a stream's every chunk does, so only a stalled vendor times out. */
  touch: () => void;
  /** Stops the deadline and, if the body is still open, the request. */
  stop: () => void;
  /** Why the request was aborted (the deadline's TimeoutError), if it was. */
  reason: () => unknown;
}

/**
 * The connections to checked endpoints (an openai_compatible base_url): one dispatcher per set of checked
 * addresses, kept alive across calls and bounded (pinned-connect.ts).
 */
const pinned = new PinnedDispatchers();

/** A refusal's body is read this far: its message is all that travels on. */
const REFUSAL_MAX_BYTES = 64 * 1024;

/**
 * A vendor body read to its end as text, or `null` once it passes `maxBytes` (the request is then left to
 * the caller to stop): a hostile endpoint cannot fill the API's memory with one answer.
 */
export async function readCapped(response: Response, maxBytes: number): Promise<string | null> {
  const body = response.body;
  if (body === null) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return text + decoder.decode();
      bytes += next.value.byteLength;
      if (bytes > maxBytes) {
        void reader.cancel().catch(() => {});
        return null;
      }
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Sends an OpenAI chat completion to the target: the body as the runner gave it, with the resolved
 * model, and for a stream `stream_options.include_usage` so the last chunk carries the usage. The key
 * travels in the Authorization header only. An `anthropic` target gets the body translated to its
 * Messages wire instead (`POST /v1/messages`, the key in `x-api-key`; anthropic-request.ts). A refusal (non-2xx) or a failed connection becomes a problem
 * (failures.ts); redirects are not followed. `deadlineMs` bounds the head and, re-armed by `touch`, every
 * wait for more of the body. A target with checked addresses is connected to those only, never to what its
 * name resolves to by now (DNS rebinding); the others go through the process's own connections.
 */
export async function forwardChat(
  target: Target,
  body: Record<string, unknown>,
  deadlineMs: number,
): Promise<Forwarded> {
  const anthropic = target.provider === "anthropic";
  const payload: Record<string, unknown> = anthropic
    ? toAnthropic(body, target.model)
    : { ...body, model: target.model };
  if (!anthropic && body.stream === true) {
    const options =
      typeof body.stream_options === "object" && body.stream_options !== null ? body.stream_options : {};
    payload.stream_options = { ...options, include_usage: true };
  }
  const controller = new AbortController();
  const expire = () => controller.abort(new DOMException("The vendor's deadline passed.", "TimeoutError"));
  let timer = setTimeout(expire, deadlineMs);
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(expire, deadlineMs);
  };
  const stop = () => {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(new DOMException("Done.", "AbortError"));
  };
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (anthropic) {
    headers["anthropic-version"] = ANTHROPIC_VERSION;
    if (target.apiKey !== null) headers["x-api-key"] = target.apiKey;
  } else if (target.apiKey !== null) headers.authorization = `Bearer ${target.apiKey}`;
  const url = anthropic ? `${target.baseUrl}/v1/messages` : `${target.baseUrl}/chat/completions`;
  let json: string;
  try {
    json = JSON.stringify(payload);
  } catch {
    // A tool call's arguments parse to a value nested too deep to write again (the Anthropic wire).
    stop();
    throw new Problem("UZ-MODEL-009", {
      detail: "The request nests too deeply to translate (a tool call's arguments).",
    });
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: json,
      redirect: "manual",
      signal: controller.signal,
      ...(target.addresses === null ? {} : { dispatcher: pinned.for(target.addresses) }),
    });
  } catch (error) {
    const reason = controller.signal.aborted ? controller.signal.reason : error;
    stop();
    throw unreachable(reason, target.provider);
  }
  if (response.status < 200 || response.status >= 300) {
    let text = "";
    try {
      text = (await readCapped(response, REFUSAL_MAX_BYTES)) ?? "";
    } catch {
      // the refusal's status says enough
    }
    stop();
    throw vendorRefusal(response.status, response.headers, text, target.apiKey, target.provider);
  }
  return { response, touch, stop, reason: () => controller.signal.reason };
}
