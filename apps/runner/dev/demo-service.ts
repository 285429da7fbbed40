import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { nextStep, SCRIPTED_MODEL_ID } from "./scripted-model.ts";
import { completionJson, streamPayloads } from "./scripted-wire.ts";

/**
 * The local demo service `pnpm start` runs beside the API in dev mode, on loopback only:
 * - a tiny **status board** (`GET /status`), which the demo agent fleet reads with `http_request`;
 * - the **scripted demo model** under `/model/v1` (`POST /chat/completions`, `GET /models`), the model
 *   gateway's stand-in when no provider is configured (FLEET_DEV_SCRIPTED_MODEL_URL). Not a real model.
 */

/** What the board shows: one service in trouble, so the agent has something to remember. */
const board = {
  services: [
    { name: "checkout", status: "degraded", note: "p99 latency 2.4 s since 09:12 UTC" },
    { name: "search", status: "operational" },
    { name: "payments", status: "operational" },
  ],
};

/** A request body, at most 1 MiB, parsed as a JSON object; null otherwise. */
async function jsonBody(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  let size = 0;
  const parts: Buffer[] = [];
  for await (const part of request as AsyncIterable<Buffer>) {
    size += part.byteLength;
    if (size > 1024 * 1024) return null;
    parts.push(part);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(parts).toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function send(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

export interface DemoServiceOptions {
  /** Pause between two streamed chunks, so a person sees the text arrive (0 in tests). */
  chunkDelayMs?: number;
}

async function chat(
  request: IncomingMessage,
  response: ServerResponse,
  boardUrl: string,
  options: DemoServiceOptions,
): Promise<void> {
  const body = await jsonBody(request);
  if (body === null || !Array.isArray(body.messages))
    return send(response, 400, { error: { message: "The body must be a JSON object with messages." } });
  const step = nextStep(body, boardUrl);
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  if (body.stream !== true) return send(response, 200, completionJson(id, created, body, step));
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const payload of streamPayloads(id, created, body, step)) {
    if (response.destroyed) return;
    response.write(`data: ${payload}\n\n`);
    if (options.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, options.chunkDelayMs));
  }
  response.end();
}

/** Starts the demo service on 127.0.0.1 (`port` 0: any free one). */
export async function startDemoService(
  port: number,
  options: DemoServiceOptions = {},
): Promise<{ server: Server; url: string; modelUrl: string; close(): Promise<void> }> {
  let url = "";
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (request.method === "GET" && (path === "/status" || path === "/"))
      return send(response, 200, { ...board, updated_at: new Date().toISOString() });
    if (request.method === "GET" && path === "/model/v1/models")
      return send(response, 200, { object: "list", data: [{ id: SCRIPTED_MODEL_ID, object: "model" }] });
    if (request.method === "POST" && path === "/model/v1/chat/completions")
      return void chat(request, response, url, options).catch(() => response.destroy());
    send(response, 404, { error: { message: `Nothing at ${request.method} ${path}.` } });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`;
  return {
    server,
    url,
    modelUrl: `${url}/model/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
