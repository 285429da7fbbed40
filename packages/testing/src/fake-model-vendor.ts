import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { handleAnthropic } from "./fake-model-vendor-anthropic.ts";
import { handleOpenAI } from "./fake-model-vendor-openai.ts";

/**
 * A local fake of the model vendors the gateway forwards to, speaking their real wires: OpenAI chat
 * completions (`POST /v1/chat/completions`, `GET /v1/models`, key in `Authorization: Bearer`) and Anthropic
 * messages (`POST /v1/messages`, `GET /v1/models`, key in `x-api-key` with `anthropic-version`), each
 * unstreamed or streamed as server-sent events, with tool calls and usage. Scripts make the next calls slow,
 * refused (429 with Retry-After, 5xx, 4xx in the vendor's own error shape), broken mid-stream or hanging.
 * Listens on 127.0.0.1; nothing here touches the internet. Used by the API tests and `pnpm bench`.
 */
export interface VendorCall {
  wire: "openai" | "anthropic";
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
  at: number;
}

export type VendorScript =
  | {
      kind: "answer";
      /** Default "Hello from the fake model." (empty when the answer has tool calls). */
      text?: string;
      /** `arguments` is a JSON text. */
      toolCalls?: { id: string; name: string; arguments: string }[];
      /** Default: about four characters a token of the request body and of the answer; cached 0. */
      usage?: { input: number; output: number; cached?: number };
      /** How many text pieces a stream sends (default 3). */
      chunks?: number;
      /** Before the answer's headers. */
      delayMs?: number;
      /**
       * Before the answer's headers (after `delayMs`), the call waits for this: a test holds calls in
       * flight for as long as it needs, with no timing.
       */
      holdUntil?: Promise<unknown>;
      /** Between stream chunks. */
      chunkDelayMs?: number;
      /**
       * A stream's bytes go out in two network writes (20 ms apart), cut in the middle of the first place
       * this text occurs (e.g. a key the answer echoes): the client reads it in two pieces.
       */
      splitWithin?: string;
    }
  /** 429/500/503/400/401…, in the vendor's own error body shape; 429 carries Retry-After (default "1"). */
  | { kind: "status"; status: number; retryAfter?: string; message?: string }
  /** A stream that starts, sends N chunks (SSE events), then the socket is destroyed. */
  | { kind: "break"; afterChunks: number }
  /**
   * A stream that starts, sends N chunks, then reports an error in the stream and ends (Anthropic
   * `event: error`, OpenAI a `data: {error}` line); an unstreamed call gets the status instead.
   */
  | { kind: "streamError"; afterChunks: number; status: number; retryAfter?: string; message?: string }
  /** Accepts the request and never answers. */
  | { kind: "hang" };

export interface FakeModelVendor {
  /** http://127.0.0.1:PORT */
  url: string;
  /** `${url}/v1`: an OpenAI client's baseURL (POST /chat/completions, GET /models). */
  openaiBaseUrl: string;
  /** `${url}`: an Anthropic client's baseURL (POST /v1/messages, GET /v1/models). */
  anthropicBaseUrl: string;
  /** The key it accepts on both wires. */
  apiKey: string;
  /** Model ids its /models lists and its completions accept. */
  models: string[];
  /** Every request received, in order. */
  calls: VendorCall[];
  /** Connections accepted, whether or not a request followed (a TLS hello to this http server is one). */
  connections: number;
  /** Queued answers for the next completion calls (past key and body checks); empty -> `respond`, else the default answer. */
  script(...next: VendorScript[]): void;
  close(): Promise<void>;
}

export const DEFAULT_MODELS = ["gpt-4o-mini", "gpt-4o", "claude-sonnet-4-5", "claude-haiku-4-5"];

/** What a wire's handler gets for one request. */
export interface WireContext {
  request: IncomingMessage;
  response: ServerResponse;
  path: string;
  body: unknown;
  vendor: FakeModelVendor;
  /** The next script, else the responder's answer to this request, else the default answer. */
  nextScript(): VendorScript;
  /** Leaves the request unanswered until the vendor closes. */
  hang(): void;
  /** True once the vendor is closing: streams stop writing. */
  stopped(): boolean;
}

/**
 * Answers a completion call from its request when no script is queued: many conversations at once (each
 * told apart by its messages) get their own answers, which one shared queue cannot give, and callers in
 * other processes, which cannot queue scripts, get a stand-in model that plays a fixed script. Undefined
 * leaves the call to the default answer.
 */
export type VendorResponder = (body: unknown) => VendorScript | undefined;

export interface FakeModelVendorOptions {
  apiKey?: string;
  models?: string[];
  respond?: VendorResponder;
}

export async function startFakeModelVendor(options: FakeModelVendorOptions = {}): Promise<FakeModelVendor> {
  const queue: VendorScript[] = [];
  const hanging = new Set<ServerResponse>();
  let closing = false;
  const vendor: FakeModelVendor = {
    url: "",
    openaiBaseUrl: "",
    anthropicBaseUrl: "",
    apiKey: options.apiKey ?? "sk-fake-model-vendor-key",
    models: [...(options.models ?? DEFAULT_MODELS)],
    calls: [],
    connections: 0,
    script(...next) {
      queue.push(...next);
    },
    close: () =>
      new Promise((resolve) => {
        closing = true;
        for (const response of hanging) response.destroy();
        hanging.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function handle(request: IncomingMessage, response: ServerResponse, raw: string) {
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    const anthropicHeaders =
      request.headers["x-api-key"] !== undefined || request.headers["anthropic-version"] !== undefined;
    const wire =
      path === "/v1/messages" || (anthropicHeaders && path !== "/v1/chat/completions")
        ? "anthropic"
        : "openai";
    const body = parse(raw);
    vendor.calls.push({
      wire,
      method: request.method ?? "GET",
      path,
      headers: { ...request.headers },
      body,
      at: Date.now(),
    });
    const context: WireContext = {
      request,
      response,
      path,
      body,
      vendor,
      nextScript: () => queue.shift() ?? options.respond?.(body) ?? { kind: "answer" },
      hang: () => {
        hanging.add(response);
        response.on("close", () => hanging.delete(response));
      },
      stopped: () => closing,
    };
    const handled = wire === "openai" ? handleOpenAI(context) : handleAnthropic(context);
    handled.catch(() => response.destroy());
  }

  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => handle(request, response, Buffer.concat(parts).toString("utf8")));
  });
  server.on("connection", () => {
    vendor.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  vendor.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  vendor.openaiBaseUrl = `${vendor.url}/v1`;
  vendor.anthropicBaseUrl = vendor.url;
  return vendor;
}

function parse(raw: string): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The environment that points an API at this vendor. */
export function modelVendorEnv(vendor: FakeModelVendor): Record<string, string> {
  return { FLEET_OPENAI_BASE_URL: vendor.openaiBaseUrl, FLEET_ANTHROPIC_BASE_URL: vendor.anthropicBaseUrl };
}
