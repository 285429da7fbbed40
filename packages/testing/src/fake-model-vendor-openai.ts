import type { ServerResponse } from "node:http";
import type { WireContext } from "./fake-model-vendor.ts";
import { runScript } from "./fake-model-vendor-run.ts";
import { type Answer, split, vendorId } from "./fake-model-vendor-scripts.ts";
import { isObject, sendJson } from "./fake-model-vendor-sse.ts";

/** OpenAI's chat completions wire, as much of it as a gateway forwards. */
export async function handleOpenAI(context: WireContext): Promise<void> {
  const { request, response, path, vendor } = context;
  const method = request.method ?? "GET";
  const header = request.headers.authorization;
  if (header !== `Bearer ${vendor.apiKey}`) {
    const message = header
      ? "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys."
      : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
    return sendError(response, 401, message, "invalid_api_key");
  }
  if (method === "GET" && path === "/v1/models") {
    return sendJson(response, 200, { object: "list", data: vendor.models.map(model) }, requestId());
  }
  if (method === "GET" && path.startsWith("/v1/models/")) {
    const id = decodeURIComponent(path.slice("/v1/models/".length));
    if (vendor.models.includes(id)) return sendJson(response, 200, model(id), requestId());
    return sendError(response, 404, modelMissing(id), "model_not_found");
  }
  if (method === "POST" && path === "/v1/chat/completions") return complete(context);
  return sendError(response, 404, `Invalid URL (${method} ${path})`, null);
}

async function complete(context: WireContext): Promise<void> {
  const { response, body, vendor } = context;
  if (!isObject(body)) {
    const message =
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)";
    return sendError(response, 400, message, null);
  }
  if (typeof body.model !== "string")
    return sendError(response, 400, "you must provide a model parameter", null, "model");
  if (!vendor.models.includes(body.model))
    return sendError(response, 404, modelMissing(body.model), "model_not_found");
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return sendError(response, 400, "[] is too short - 'messages'", "empty_array", "messages");
  }
  const stream = body.stream === true;
  const includeUsage = isObject(body.stream_options) && body.stream_options.include_usage === true;
  const modelId = body.model;
  return runScript(context, stream, {
    headers: requestId,
    error: (status, message, retryAfter) =>
      sendError(response, status, message ?? statusMessage(status), statusCode(status), null, retryAfter),
    message: (answer) => completion(answer, modelId),
    events: (answer) => [
      ...chunks(answer, modelId, includeUsage).map((data) => ({ data })),
      { data: "[DONE]" },
    ],
    streamError: (status, message) => ({
      data: { error: errorBody(status, message ?? statusMessage(status), statusCode(status), null) },
    }),
  });
}

/** The unstreamed answer: a `chat.completion`. */
export function completion(answer: Answer, modelId: string) {
  const toolCalls = answer.toolCalls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: vendorId("chatcmpl-"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: modelId,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: answer.text.length > 0 || toolCalls.length === 0 ? answer.text : null,
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: usage(answer),
    system_fingerprint: "fp_fake",
  };
}

/**
 * The streamed answer's `chat.completion.chunk`s, without the closing `[DONE]`: the role first, the text in
 * pieces, each tool call (id and name, then its arguments in pieces), the finish reason, and with
 * `include_usage` a last chunk with no choices and the usage (every other chunk then has `usage: null`).
 */
export function chunks(answer: Answer, modelId: string, includeUsage: boolean): unknown[] {
  const id = vendorId("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finishReason: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: modelId,
    system_fingerprint: "fp_fake",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const out: unknown[] = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of split(answer.text, answer.chunks)) out.push(chunk({ content: piece }));
  for (const [index, call] of answer.toolCalls.entries()) {
    out.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const piece of split(call.arguments, 3))
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  out.push(chunk({}, answer.toolCalls.length > 0 ? "tool_calls" : "stop"));
  if (includeUsage) {
    out.push({
      id,
      object: "chat.completion.chunk",
      created,
      model: modelId,
      system_fingerprint: "fp_fake",
      choices: [],
      usage: usage(answer),
    });
  }
  return out;
}

function usage(answer: Answer) {
  return {
    prompt_tokens: answer.usage.input,
    completion_tokens: answer.usage.output,
    total_tokens: answer.usage.input + answer.usage.output,
    prompt_tokens_details: { cached_tokens: answer.usage.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function model(id: string) {
  return { id, object: "model", created: 1_700_000_000, owned_by: "fake-model-vendor" };
}

function modelMissing(id: string): string {
  return `The model \`${id}\` does not exist or you do not have access to it.`;
}

function requestId(): Record<string, string> {
  return { "x-request-id": vendorId("req_") };
}

function statusMessage(status: number): string {
  if (status === 429) return "Rate limit reached for requests. Please try again in 1s.";
  if (status === 503) return "The server is overloaded or not ready yet.";
  if (status >= 500) return "The server had an error while processing your request. Sorry about that!";
  if (status === 401) return "Incorrect API key provided.";
  return "Invalid request.";
}

function statusCode(status: number): string | null {
  if (status === 429) return "rate_limit_exceeded";
  if (status === 401) return "invalid_api_key";
  return null;
}

/** OpenAI's error body: `{error: {message, type, param, code}}`. */
function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  code: string | null,
  param: string | null = null,
  retryAfter?: string,
) {
  const headers: Record<string, string> = {
    ...requestId(),
    ...(retryAfter ? { "retry-after": retryAfter } : {}),
  };
  sendJson(response, status, { error: errorBody(status, message, code, param) }, headers);
}

function errorBody(status: number, message: string, code: string | null, param: string | null) {
  const type = status === 429 ? "requests" : status >= 500 ? "server_error" : "invalid_request_error";
  return { message, type, param, code };
}
