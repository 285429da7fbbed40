import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/**
 * A local MCP server for tests, over Streamable HTTP (the SDK's own server side), at
 * `http://127.0.0.1:<port>/mcp`. Its tools:
 * - `add {a, b}`: answers the sum;
 * - `write_note {text}`: keeps the note (`notes`), answers "Noted.";
 * - `wait {ms}`: answers after `ms` (at most 60 s), or never when the client goes away.
 * It records each tool call, the headers of each HTTP request, and the sessions opened and closed.
 */
export interface FakeMcpServer {
  port: number;
  url: string;
  calls: { tool: string; args: Record<string, unknown> }[];
  notes: string[];
  requests: { method: string; headers: IncomingHttpHeaders }[];
  sessions: { opened: string[]; closed: string[] };
  close(): Promise<void>;
}

function tools(server: FakeMcpServer): McpServer {
  const mcp = new McpServer({ name: "fleet-test-mcp", version: "1.0.0" });
  mcp.registerTool(
    "add",
    { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => {
      server.calls.push({ tool: "add", args: { a, b } });
      return { content: [{ type: "text", text: String(a + b) }] };
    },
  );
  mcp.registerTool(
    "write_note",
    { description: "Writes a note down.", inputSchema: { text: z.string() } },
    async ({ text }) => {
      server.calls.push({ tool: "write_note", args: { text } });
      server.notes.push(text);
      return { content: [{ type: "text", text: "Noted." }] };
    },
  );
  mcp.registerTool(
    "wait",
    { description: "Waits, then answers.", inputSchema: { ms: z.number().int().min(0).max(60_000) } },
    async ({ ms }, extra) => {
      server.calls.push({ tool: "wait", args: { ms } });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return { content: [{ type: "text", text: `Waited ${ms} ms.` }] };
    },
  );
  return mcp;
}

export async function startFakeMcpServer(): Promise<FakeMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const state = {
    port: 0,
    url: "",
    calls: [],
    notes: [],
    requests: [],
    sessions: { opened: [], closed: [] },
    close: async () => undefined,
  } as FakeMcpServer;
  const http: Server = createServer((request, response) => {
    state.requests.push({ method: request.method ?? "GET", headers: request.headers });
    const sessionId = request.headers["mcp-session-id"];
    const known = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
    if (known) {
      void known.handleRequest(request, response);
      return;
    }
    if (request.method !== "POST") {
      response.writeHead(404).end();
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
        state.sessions.opened.push(id);
      },
      onsessionclosed: (id) => {
        transports.delete(id);
        state.sessions.closed.push(id);
      },
    });
    void tools(state)
      .connect(transport)
      .then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address();
  state.port = typeof address === "object" && address ? address.port : 0;
  state.url = `http://127.0.0.1:${state.port}/mcp`;
  state.close = async () => {
    for (const transport of transports.values()) await transport.close().catch(() => undefined);
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return state;
}
