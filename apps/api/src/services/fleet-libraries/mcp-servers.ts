import type { McpServerEntry } from "@fleet/contracts";
import type { StoredMcpServer } from "@fleet/db";

/**
 * A definition's MCP server as stored in the requirements and carried on the lease: the server's own
 * approval (null when not every tool is gated) and the names of the tools marked `approval: required`.
 */
export function storedMcpServer(server: McpServerEntry): StoredMcpServer {
  return {
    name: server.name,
    url: server.url,
    approval: server.approval ?? null,
    tool_approvals: (server.tools ?? [])
      .filter((tool) => tool.approval === "required")
      .map((tool) => tool.name),
    ...(server.headers === undefined ? {} : { headers: server.headers }),
  };
}
