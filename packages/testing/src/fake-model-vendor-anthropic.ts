import type { ServerResponse } from "node:http";
import type { WireContext } from "./fake-model-vendor.ts";
import { runScript, type SseEvent } from "./fake-model-vendor-run.ts";
import { type Answer, split, vendorId } from "./fake-model-vendor-scripts.ts";
import { isObject, sendJson } from "./fake-model-vendor-sse.ts";

/**
 * Anthropic's messages wire, as much of it as a gateway forwards. The script's `usage.input` is the whole
 * prompt (as OpenAI's `prompt_tokens`): Anthropic reports `input_tokens` as that less the cached part,
 * which it reports as `cache_read_input_tokens`.
 */
export async function handleAnthropic(context: WireContext): Promise<void> {
  const { request, response, path, vendor } = context;
  const method = request.method ?? "GET";
  const key = request.headers["x-api-key"];
  if (key === undefined) return sendError(response, 401, "x-api-key header is required");
  if (key !== vendor.apiKey) return sendError(response, 401, "invalid x-api-key");
  if (typeof request.headers["anthropic-version"] !== "string") {
    return sendError(response, 400, "anthropic-version: header is required");
  }
  if (method === "GET" && path === "/v1/models") {
    const data = vendor.models.map(model);
    const page = { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
    return sendJson(response, 200, page, requestId());
  }
  if (method === "GET" && path.startsWith("/v1/models/")) {
    const id = decodeURIComponent(path.slice("/v1/models/".length));
    if (vendor.models.includes(id)) return sendJson(response, 200, model(id), requestId());
    return sendError(response, 404, `model: ${id}`);
  }
  if (method === "POST" && path === "/v1/messages") return create(context);
  return sendError(response, 404, "Not Found");
}

async function create(context: WireContext): Promise<void> {
  const { response, body, vendor } = context;
  if (!isObject(body))
    return sendError(response, 400, "There was an issue with your request body: invalid JSON");
  if (typeof body.model !== "string") return sendError(response, 400, "model: Field required");
  if (typeof body.max_tokens !== "number" || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) {
    return sendError(response, 400, "max_tokens: Field required");
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return sendError(response, 400, "messages: at least one message is required");
  }
  if (!vendor.models.includes(body.model)) return sendError(response, 404, `model: ${body.model}`);
  const modelId = body.model;
  return runScript(context, body.stream === true, {
    headers: requestId,
    error: (status, message, retryAfter) => sendError(response, status, message, retryAfter),
    message: (answer) => message(answer, modelId),
    events: (answer) => events(answer, modelId),
    streamError: (status, text) => ({ event: "error", data: errorBody(status, text) }),
  });
}

/** The unstreamed answer: a `message` with its text block, then its tool_use blocks. */
export function message(answer: Answer, modelId: string) {
  return {
    id: vendorId("msg_"),
    type: "message",
    role: "assistant",
    model: modelId,
    content: [
      ...(answer.text.length > 0 ? [{ type: "text", text: answer.text }] : []),
      ...answer.toolCalls.map((call) => ({
        type: "tool_use",
        id: call.id,
        name: call.name,
        input: input(call.arguments),
      })),
    ],
    stop_reason: stopReason(answer),
    stop_sequence: null,
    usage: { ...inputUsage(answer), output_tokens: answer.usage.output },
  };
}

/**
 * The streamed answer's events: message_start (input usage), a ping, each block's
 * content_block_start / content_block_delta (text_delta, input_json_delta) / content_block_stop,
 * message_delta (stop reason, output usage), message_stop.
 */
export function events(answer: Answer, modelId: string): SseEvent[] {
  const out: SseEvent[] = [];
  const send = (data: { type: string } & Record<string, unknown>) => out.push({ event: data.type, data });
  const start = { ...message(answer, modelId), content: [], stop_reason: null };
  send({ type: "message_start", message: { ...start, usage: { ...inputUsage(answer), output_tokens: 1 } } });
  send({ type: "ping" });
  let index = 0;
  if (answer.text.length > 0) {
    send({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const text of split(answer.text, answer.chunks)) {
      send({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
    }
    send({ type: "content_block_stop", index });
    index += 1;
  }
  for (const call of answer.toolCalls) {
    const block = { type: "tool_use", id: call.id, name: call.name, input: {} };
    send({ type: "content_block_start", index, content_block: block });
    for (const partial_json of split(call.arguments, 3)) {
      send({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });
    }
    send({ type: "content_block_stop", index });
    index += 1;
  }
  const delta = { stop_reason: stopReason(answer), stop_sequence: null };
  send({ type: "message_delta", delta, usage: { output_tokens: answer.usage.output } });
  send({ type: "message_stop" });
  return out;
}

function inputUsage(answer: Answer) {
  return {
    input_tokens: Math.max(0, answer.usage.input - answer.usage.cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: answer.usage.cached,
  };
}

function stopReason(answer: Answer): string {
  return answer.toolCalls.length > 0 ? "tool_use" : "end_turn";
}

function input(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

function model(id: string) {
  return { type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" };
}

function requestId(): Record<string, string> {
  return { "request-id": vendorId("req_") };
}

const errorTypes: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  503: "overloaded_error",
  504: "timeout_error",
  529: "overloaded_error",
};

const errorMessages: Record<string, string> = {
  rate_limit_error: "Number of request tokens has exceeded your per-minute rate limit",
  overloaded_error: "Overloaded",
  api_error: "Internal server error",
  authentication_error: "invalid x-api-key",
};

/** Anthropic's error body: `{type: "error", error: {type, message}, request_id}`. */
function errorBody(status: number, message: string | undefined) {
  const type = errorTypes[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return {
    type: "error",
    error: { type, message: message ?? errorMessages[type] ?? "Invalid request" },
    request_id: vendorId("req_"),
  };
}

function sendError(
  response: ServerResponse,
  status: number,
  message: string | undefined,
  retryAfter?: string,
) {
  const headers: Record<string, string> = {
    ...requestId(),
    ...(retryAfter ? { "retry-after": retryAfter } : {}),
  };
  sendJson(response, status, errorBody(status, message), headers);
}
