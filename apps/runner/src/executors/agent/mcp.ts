import type { Lease } from "@fleet/contracts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Tool as McpTool, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { type ExecutionResult, type Executor, LeaseLostError, type LeaseTools } from "../../executor.ts";
import { hostAllowed, maskSecrets, resolvePlaceholders } from "./http-request.ts";

export type LeasedMcpServer = NonNullable<Lease["fleet"]["mcp_servers"]>[number];

/** How long connecting to one server (initialize and the tool list) may take. */
export const MCP_CONNECT_MS = 10_000;
/** The bytes of one HTTP answer a server may send (a tool list, a result, an event stream): past it, cut. */
export const MCP_RESPONSE_MAX_BYTES = 1024 * 1024;
/** Tools of one server offered to the model; past it the rest are not. */
export const MCP_TOOLS_PER_SERVER = 128;
/** How long closing a session (its DELETE) may take at the run's end. */
const CLOSE_MS = 1_000;

/**
 * One connected server: its client, its tools as listed when the run started (what the model is offered
 * for the whole run), whether the server still lists a tool, and how to end its session.
 */
export interface McpSession {
  server: LeasedMcpServer;
  client: Client;
  tools: McpTool[];
  /** Whether the server's latest list (re-read on each `notifications/tools/list_changed`) holds `name`. */
  stillListed(name: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The servers of a run: the connected ones, and why each other one is not. */
export interface McpSessions {
  sessions: McpSession[];
  unavailable: { name: string; why: string }[];
}

/** A response whose body errors once it has carried more than `limit` bytes. */
function bounded(response: Response, limit: number): Response {
  if (!response.body) return response;
  let size = 0;
  const cut = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > limit) controller.error(new Error(`the server's answer passed ${limit} bytes`));
      else controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(cut), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The transport's fetch: only to the fleet's network hosts (checked on every request, redirects included,
 * which the SDK follows only within the server's origin), ended with the lease, each answer bounded.
 */
function fenceFetch(networkHosts: readonly string[], signal: AbortSignal): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!hostAllowed(url.hostname.replace(/^\[(.*)\]$/, "$1"), networkHosts))
      throw new Error(`${url.hostname} is not one of the fleet's network hosts`);
    const joined = init?.signal ? AbortSignal.any([init.signal, signal]) : signal;
    const response = await fetch(input, { ...init, signal: joined });
    return bounded(response, MCP_RESPONSE_MAX_BYTES);
  };
}

/** Why a server is not connected, in words for the model and the log: never a header's value. */
function whyNot(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.slice(0, 300);
}

/** The server's tools, page by page, the first `MCP_TOOLS_PER_SERVER` of them; each page bounded in time. */
async function listTools(client: Client, lease: AbortSignal): Promise<McpTool[]> {
  const signal = AbortSignal.any([lease, AbortSignal.timeout(MCP_CONNECT_MS)]);
  const listed: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
      signal,
      timeout: MCP_CONNECT_MS,
    });
    listed.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined && listed.length < MCP_TOOLS_PER_SERVER);
  return listed.slice(0, MCP_TOOLS_PER_SERVER);
}

/**
 * Reads the server's tools, then follows its list through the run: each `notifications/tools/list_changed`
 * re-reads it (one read at a time, after the first, and at most one more queued however many notifications
 * arrive, so the last read is the newest). `stillListed` waits for a read under way, so a call made after a
 * notification arrived sees the list it announced. A re-read that fails leaves the list as last read (the
 * server answers a call of a tool it no longer has); the first read failing fails the connection.
 */
async function followToolList(
  client: Client,
  connecting: AbortSignal,
  lease: AbortSignal,
): Promise<{ listed: McpTool[]; stillListed: McpSession["stillListed"] }> {
  let names = new Set<string>();
  const hold = (tools: McpTool[]) => {
    names = new Set(tools.map((tool) => tool.name));
  };
  const first = listTools(client, connecting);
  let reading: Promise<unknown> = first.then(hold, () => undefined);
  let queued = false;
  // Set as the first read is sent, so a change announced while it is under way is read after it.
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    if (queued) return;
    queued = true;
    reading = reading.then(() => {
      queued = false;
      return listTools(client, lease).then(hold, () => undefined);
    });
  });
  const listed = await first;
  return {
    listed,
    stillListed: async (name) => {
      await reading;
      return names.has(name);
    },
  };
}

async function connect(
  server: LeasedMcpServer,
  networkHosts: readonly string[],
  tools: LeaseTools,
): Promise<McpSession> {
  const url = new URL(server.url);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`only http and https servers are reached, not ${url.protocol}`);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!hostAllowed(host, networkHosts))
    throw new Error(`${host} is not one of the fleet's network hosts; no request was sent`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(server.headers ?? {})) {
    const filled = resolvePlaceholders(value, tools.credentials);
    if ("missing" in filled) throw new Error(`${filled.missing} names a secret this fleet does not hold`);
    headers.set(name, filled.text);
  }
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: fenceFetch(networkHosts, tools.signal),
    requestInit: { headers },
    // A lost stream is not re-opened for long: the run is bounded anyway.
    reconnectionOptions: {
      initialReconnectionDelay: 500,
      maxReconnectionDelay: 2_000,
      reconnectionDelayGrowFactor: 2,
      maxRetries: 1,
    },
  });
  const client = new Client({ name: "fleet-runner", version: "1.0.0" });
  const signal = AbortSignal.any([tools.signal, AbortSignal.timeout(MCP_CONNECT_MS)]);
  const close = async () => {
    if (!tools.signal.aborted)
      await Promise.race([
        transport.terminateSession().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, CLOSE_MS).unref()),
      ]);
    await client.close().catch(() => undefined);
  };
  try {
    await client.connect(transport, { signal, timeout: MCP_CONNECT_MS });
    const { listed, stillListed } = await followToolList(client, signal, tools.signal);
    return { server, client, tools: listed, stillListed, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Connects to each MCP server the lease declares, in parallel: a server on a host outside the fleet's
 * network hosts is refused without a request, and one that cannot be reached (or whose header names a
 * secret the lease lacks) is left out, said so in `unavailable`. A lost lease aborts every connection.
 */
export async function connectMcpServers(lease: Lease, tools: LeaseTools): Promise<McpSessions> {
  const servers = lease.fleet.mcp_servers ?? [];
  const settled = await Promise.allSettled(
    servers.map((server) => connect(server, lease.fleet.network_hosts, tools)),
  );
  const result: McpSessions = { sessions: [], unavailable: [] };
  for (const [index, outcome] of settled.entries()) {
    if (outcome.status === "fulfilled") result.sessions.push(outcome.value);
    else
      result.unavailable.push({
        name: servers[index]!.name,
        why: maskSecrets(whyNot(outcome.reason), tools.credentials),
      });
  }
  return result;
}

/** Ends every session: a DELETE each (1 s at most) unless the lease is gone, then the streams closed. */
export async function closeMcpSessions(sessions: McpSessions): Promise<void> {
  await Promise.all(sessions.sessions.map((session) => session.close()));
}

/** No servers: a run without any (the agent's run called directly). */
export const NO_MCP: McpSessions = { sessions: [], unavailable: [] };

/** An executor whose run takes the connected servers as its third argument. */
export interface McpExecutor {
  readonly name: string;
  run(lease: Lease, tools: LeaseTools, servers: McpSessions): Promise<ExecutionResult>;
}

/**
 * The executor with the lease's MCP servers connected before each run starts and their sessions ended
 * when it ends, however it ends (a lost lease included: the streams are aborted, no DELETE is sent).
 */
export function withMcpServers(executor: McpExecutor): Executor {
  return {
    name: executor.name,
    async run(lease, tools) {
      const servers = await connectMcpServers(lease, tools);
      try {
        if (tools.signal.aborted) throw new LeaseLostError(lease.lease_id);
        return await executor.run(lease, tools, servers);
      } finally {
        await closeMcpSessions(servers);
      }
    },
  };
}
