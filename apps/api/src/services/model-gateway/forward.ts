import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { StringDecoder } from "node:string_decoder";
import { Problem } from "@fleet/contracts";
import { KEEP_ALIVE, PinnedAgentPool } from "../../runtime/pinned-connect.ts";
import { ANTHROPIC_VERSION, toAnthropic } from "./anthropic-request.ts";
import { unreachable, vendorRefusal } from "./failures.ts";
import type { Target } from "./resolve.ts";

/** A vendor's answer whose head arrived with a 2xx, and the deadline watching the rest of it. */
export interface Forwarded {
  response: IncomingMessage;
  /** Restarts the deadline: a stream's every chunk does, so only a stalled vendor times out. */
  touch: () => void;
  /** Stops the deadline and, if the body is still open, the request. */
  stop: () => void;
  /** Why the request was aborted (the deadline's TimeoutError), if it was. */
  reason: () => unknown;
}

/**
 * The connections to checked endpoints (an openai_compatible base_url): one agent pair per set of checked
 * addresses, kept alive across calls and bounded (pinned-connect.ts).
 */
const pinned = new PinnedAgentPool();

/** A refusal's body is read this far: its message is all that travels on. */
const REFUSAL_MAX_BYTES = 64 * 1024;

/**
 * Kept-alive connections to the operator's vendors (lifo, as Node's global agent), an idle one closed after
 * 4 s: before a Node server's own 5 s, so a call never takes a connection the vendor is closing. node:http
 * rather than fetch: fetch's web streams cost a streamed call about twice the CPU
 * (docs/decisions/model-gateway.md, "Figures").
 */
const agents = { http: new HttpAgent(KEEP_ALIVE), https: new HttpsAgent(KEEP_ALIVE) };

/**
 * A vendor body read to its end as text, or `null` once it passes `maxBytes` (the request is then left to
 * the caller to stop): a hostile endpoint cannot fill the API's memory with one answer.
 */
export async function readCapped(response: IncomingMessage, maxBytes: number): Promise<string | null> {
  const decoder = new StringDecoder("utf8");
  let text = "";
  let bytes = 0;
  for await (const piece of response as AsyncIterable<Buffer>) {
    bytes += piece.byteLength;
    if (bytes > maxBytes) {
      response.destroy();
      return null;
    }
    text += decoder.write(piece);
  }
  return text + decoder.end();
}

/** The answer's head, or the failure that came first (refused, reset, the deadline's abort). */
function send(
  url: URL,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  addresses: readonly string[] | null,
): Promise<{ request: ClientRequest; response: IncomingMessage }> {
  const https = url.protocol === "https:";
  const pool = addresses === null ? agents : pinned.for(addresses);
  return new Promise((resolve, reject) => {
    const request = (https ? httpsRequest : httpRequest)(
      url,
      {
        method: "POST",
        agent: https ? pool.https : pool.http,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        signal,
      },
      (response) => resolve({ request, response }),
    );
    request.on("error", reject);
    request.end(body);
  });
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
  // One timer for the whole call: a chunk only notes its time, and the timer, when it fires, waits out
  // what is left since the last one (re-arming a timer per chunk cost a stream as much as reading it).
  let lastMs = performance.now();
  const check = () => {
    const idle = performance.now() - lastMs;
    if (idle >= deadlineMs) expire();
    else timer = setTimeout(check, deadlineMs - idle);
  };
  let timer = setTimeout(check, deadlineMs);
  let finished: IncomingMessage | null = null;
  const touch = () => {
    lastMs = performance.now();
  };
  const stop = () => {
    clearTimeout(timer);
    // A body read to its end needs nothing more; one still open is cut (its connection is not reused).
    if (finished !== null && !finished.complete && !finished.destroyed) finished.destroy();
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
  let response: IncomingMessage;
  try {
    ({ response } = await send(new URL(url), headers, json, controller.signal, target.addresses));
  } catch (error) {
    const reason = controller.signal.aborted ? controller.signal.reason : error;
    stop();
    throw unreachable(reason, target.provider);
  }
  finished = response;
  const status = response.statusCode ?? 0;
  if (status < 200 || status >= 300) {
    let text = "";
    try {
      text = (await readCapped(response, REFUSAL_MAX_BYTES)) ?? "";
    } catch {
      // the refusal's status says enough
    }
    stop();
    throw vendorRefusal(status, headersOf(response), text, target.apiKey, target.provider);
  }
  return { response, touch, stop, reason: () => controller.signal.reason };
}

/** A refusal's headers as fetch's `Headers` (vendorRefusal reads Retry-After from them). */
function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
  }
  return headers;
}
