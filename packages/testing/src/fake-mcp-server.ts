import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/**
 * A local MCP server for tests, over Streamable HTTP (the SDK's own server side), at
 * `http://127.0.0.1:<port>/mcp`. Its tools:
 * - `add {a, b}`: answers the sum;
 * - `write_note {text}`: keeps the note (`notes`), answers "Noted.";
 * - `wait {ms}`: answers after `ms` (at most 60 s), or never when the client goes away.
 * It records each tool call, the headers of each HTTP request, the JSON-RPC method of each POST, and the
 * sessions opened and closed. On demand it stops listing a tool (`retireTool`): every open session is sent
 * `notifications/tools/list_changed` (on its standing GET stream), and new sessions do not list it either,
 * until `restoreTools`.
 */
export interface FakeMcpServer {
  port: number;
  url: string;
  calls: { tool: string; args: Record<string, unknown> }[];
  notes: string[];
  requests: { method: string; headers: IncomingHttpHeaders }[];
  /** Each JSON-RPC message POSTed: its method, and the session it was sent in (none for initialize). */
  rpc: { method: string; session: string | undefined }[];
  sessions: { opened: string[]; closed: string[] };
  /** Stops listing `name` (a call of it is refused); open sessions are told their list changed. */
  retireTool(name: string): void;
  /** Lists every tool again. */
  restoreTools(): void;
  close(): Promise<void>;
}

/** A session's server and its tools by name. */
function tools(server: FakeMcpServer): { mcp: McpServer; registered: Map<string, RegisteredTool> } {
  const mcp = new McpServer({ name: "fleet-test-mcp", version: "1.0.0" });
  const registered = new Map<string, RegisteredTool>();
  registered.set(
    "add",
    mcp.registerTool(
      "add",
      { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } },
      async ({ a, b }) => {
        server.calls.push({ tool: "add", args: { a, b } });
        return { content: [{ type: "text", text: String(a + b) }] };
      },
    ),
  );
  registered.set(
    "write_note",
    mcp.registerTool(
      "write_note",
      { description: "Writes a note down.", inputSchema: { text: z.string() } },
      async ({ text }) => {
        server.calls.push({ tool: "write_note", args: { text } });
        server.notes.push(text);
        return { content: [{ type: "text", text: "Noted." }] };
      },
    ),
  );
  registered.set(
    "wait",
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
    ),
  );
  return { mcp, registered };
}

/** The body of a POST, parsed (the transport takes it so), with each JSON-RPC method recorded. */
async function readRpc(
  request: IncomingMessage,
  state: FakeMcpServer,
  session: string | undefined,
): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  for (const message of Array.isArray(body) ? body : [body]) {
    const method = (message as { method?: unknown }).method;
    if (typeof method === "string") state.rpc.push({ method, session });
  }
  return body;
}

export async function startFakeMcpServer(): Promise<FakeMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  // Each session's registered tools, so a retired tool is disabled in all of them.
  const registered = new Set<Map<string, RegisteredTool>>();
  const retired = new Set<string>();
  const state = {
    port: 0,
    url: "",
    calls: [],
    notes: [],
    requests: [],
    rpc: [],
    sessions: { opened: [], closed: [] },
    retireTool: (name: string) => {
      retired.add(name);
      for (const session of registered) session.get(name)?.disable();
    },
    restoreTools: () => {
      retired.clear();
      for (const session of registered) for (const tool of session.values()) if (!tool.enabled) tool.enable();
    },
    close: async () => undefined,
  } as FakeMcpServer;
  const http: Server = createServer(async (request, response) => {
    state.requests.push({ method: request.method ?? "GET", headers: request.headers });
    const sessionId = request.headers["mcp-session-id"];
    const session = typeof sessionId === "string" ? sessionId : undefined;
    const body = request.method === "POST" ? await readRpc(request, state, session) : undefined;
    const known = session === undefined ? undefined : transports.get(session);
    if (known) {
      void known.handleRequest(request, response, body);
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
    const { mcp, registered: sessionTools } = tools(state);
    for (const name of retired) sessionTools.get(name)?.disable();
    registered.add(sessionTools);
    transport.onclose = () => registered.delete(sessionTools);
    void mcp.connect(transport).then(() => transport.handleRequest(request, response, body));
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
