import { createHash } from "node:crypto";
import { actionSchemaFault, type Lease } from "@fleet/contracts";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type JSONSchema7, jsonSchema, type Tool, tool } from "ai";
import type { LeaseTools } from "../../executor.ts";
import { observed, type ToolOutcome } from "./frames.ts";
import { gated, toolGateRequest } from "./gate.ts";
import { HTTP_BODY_MAX_BYTES, maskSecrets } from "./http-request.ts";
import type { McpSession, McpSessions } from "./mcp.ts";

/** How long one MCP tool call may take. */
export const MCP_CALL_MS = 60_000;
/** What the model is given of one result, at most (as http_request's body). */
export const MCP_OUTPUT_MAX_CHARS = HTTP_BODY_MAX_BYTES;
/** A tool's description as the model reads it. */
const DESCRIPTION_CHARS = 2_000;
/** The tool-name rule of the OpenAI chat API, which the gateway relays. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The name the model calls a server's tool by: `<server>__<tool>`. A tool whose name does not fit the
 * rule (characters such as `.`, or too long) gets its fitting characters and 8 hex digits of its name's
 * SHA-256, so it is still offered and still distinct.
 */
export function offeredName(server: string, toolName: string): string {
  const plain = `${server}__${toolName}`;
  if (TOOL_NAME.test(plain)) return plain;
  const hash = createHash("sha256").update(toolName).digest("hex").slice(0, 8);
  const room = 64 - server.length - 2 - 9;
  return `${server}__${toolName.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, room)}_${hash}`;
}

/** A tool result as text for the model: text parts as they are, other parts named; bounded. */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const part of result.content ?? []) {
    if (part.type === "text") parts.push(part.text);
    else if (part.type === "resource")
      parts.push("text" in part.resource ? part.resource.text : `[resource ${part.resource.uri}]`);
    else if (part.type === "resource_link") parts.push(`[resource ${part.uri}]`);
    else parts.push(`[${part.type} (${part.mimeType}) not shown]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join("\n");
  if (text.length <= MCP_OUTPUT_MAX_CHARS) return text;
  return `${text.slice(0, MCP_OUTPUT_MAX_CHARS)}\n(result cut at ${MCP_OUTPUT_MAX_CHARS} characters)`;
}

/** The tool's input schema as the model reads it: an object schema, whatever the server sent. */
function inputSchema(schema: unknown): JSONSchema7 {
  const given = typeof schema === "object" && schema !== null ? (schema as JSONSchema7) : {};
  return { ...given, type: "object", properties: given.properties ?? {} };
}

/**
 * The gate's `action_schema` for a server's tool, against which the service checks an approver's edit: the
 * tool's own input schema when a gate can hold it (16 KiB, 32 levels, a schema zod reads), else only "an
 * object" (the server then checks the edited arguments when it is called).
 */
function gateSchema(schema: JSONSchema7): Record<string, unknown> {
  const { $schema: _, ...json } = schema as Record<string, unknown>;
  return actionSchemaFault(json) === null ? json : { type: "object" };
}

/** What the model is told of a call of a tool its server stopped listing during the run: it was not made. */
async function notListed(session: McpSession, toolName: string): Promise<ToolOutcome | null> {
  if (await session.stillListed(toolName)) return null;
  return {
    status: "error",
    output: `The MCP server ${session.server.name} no longer offers the tool ${toolName} (its tool list changed during this run), so it was not called.`,
  };
}

async function callTool(
  session: McpSession,
  name: string,
  args: unknown,
  tools: LeaseTools,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const missing = await notListed(session, name);
  if (missing !== null) return missing;
  try {
    const result = (await session.client.callTool(
      { name, arguments: (args ?? {}) as Record<string, unknown> },
      undefined,
      { signal, timeout: MCP_CALL_MS },
    )) as CallToolResult;
    const output = maskSecrets(resultText(result), tools.credentials);
    return { status: result.isError ? "error" : "ok", output };
  } catch (error) {
    if (tools.signal.aborted) throw error;
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return {
      status: "error",
      output: `The MCP server ${session.server.name} failed the call: ${maskSecrets(why ?? "", tools.credentials)}`,
    };
  }
}

/**
 * Runs an approver's edited arguments: the service checked them against the gate's schema, and the server
 * checks them again; here only that they are an object, as MCP arguments are.
 */
function runAmended(amended: unknown, run: (args: unknown) => Promise<ToolOutcome>): Promise<ToolOutcome> {
  if (typeof amended === "object" && amended !== null && !Array.isArray(amended)) return run(amended);
  return Promise.resolve({
    status: "refused",
    output: "The approver's changed arguments are not an object, as this tool's must be, so it did not run.",
  });
}

/**
 * The connected servers' tools as the model is offered them (`<server>__<tool>`), each call between its
 * live frames and, when the server or the tool is marked `approval: required`, after its gate, which carries
 * the tool's input schema: an approver's edit is checked when it is made, and the approved edit is what the
 * server receives. The offer is fixed when the run starts; a call of a tool the server has since stopped
 * listing is not made (nor gated). A name another tool already took is not offered twice.
 */
export function mcpTools(
  lease: Lease,
  tools: LeaseTools,
  servers: McpSessions,
  stepText: () => string = () => "",
): Record<string, Tool> {
  const set: Record<string, Tool> = {};
  for (const session of servers.sessions) {
    const gatedTools = new Set(session.server.tool_approvals);
    for (const listed of session.tools) {
      const name = offeredName(session.server.name, listed.name);
      if (name in set) continue;
      const mustAsk = session.server.approval === "required" || gatedTools.has(listed.name);
      const description = `${listed.description ?? listed.name} (the tool ${listed.name} of the MCP server ${session.server.name})`;
      const schema = inputSchema(listed.inputSchema);
      const forGate = mustAsk ? gateSchema(schema) : undefined;
      set[name] = tool({
        description: description.slice(0, DESCRIPTION_CHARS),
        inputSchema: jsonSchema(schema),
        execute: (input, { toolCallId, abortSignal }) => {
          const signal = abortSignal ? AbortSignal.any([abortSignal, tools.signal]) : tools.signal;
          const run = (args: unknown) => callTool(session, listed.name, args, tools, signal);
          const call = { callId: toolCallId, name, args: input };
          const ask = async (): Promise<ToolOutcome> =>
            (await notListed(session, listed.name)) ??
            gated(tools, toolGateRequest(lease, call, stepText(), forGate), (amended) =>
              amended === undefined ? run(input) : runAmended(amended, run),
            );
          return observed(tools, call, () => (mustAsk ? ask() : run(input))).then(
            (outcome) => outcome.output,
          );
        },
      });
    }
  }
  return set;
}

/** What the system prompt adds when a declared server could not be reached: the model knows why. */
export function unavailableNote(servers: McpSessions): string {
  if (servers.unavailable.length === 0) return "";
  const lines = servers.unavailable.map(
    ({ name, why }) => `- The MCP server ${name} could not be reached (${why}); its tools are not available.`,
  );
  return `\n\n${lines.join("\n")}`;
}
