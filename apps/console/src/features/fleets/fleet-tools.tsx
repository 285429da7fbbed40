import { Badge } from "@fleet/ui";
import type { FleetView } from "../../lib/fleet-status.ts";
import "./fleet-tools.css";

type Requirements = Pick<
  FleetView["requirements"],
  "tools" | "tool_approvals" | "tool_blast_radius" | "mcp_servers"
>;

/**
 * A definition's tools, each with its approval mark (a gate opens before every call) and the blast radius
 * it states, and its MCP servers with theirs: the marks as the definition sets them (the workspace's
 * approval policy may gate more).
 */
export function ToolRequirements({ requirements }: { requirements: Requirements }) {
  const gated = new Set(requirements.tool_approvals ?? []);
  const blast = requirements.tool_blast_radius ?? {};
  const servers = requirements.mcp_servers ?? [];
  return (
    <>
      <div>
        <dt>Tools</dt>
        <dd>
          {requirements.tools.length === 0 ? (
            <span className="muted">None</span>
          ) : (
            <ul className="tool-list" aria-label="Tools">
              {requirements.tools.map((name) => (
                <li
                  key={name}
                  className="tool-list__item"
                  data-tool={name}
                  data-gated={gated.has(name) || undefined}
                >
                  <code className="chip">{name}</code>
                  {gated.has(name) ? <Badge tone="warning">Needs approval</Badge> : null}
                  {blast[name] ? <span className="tool-list__blast">Blast radius: {blast[name]}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </div>
      {servers.length > 0 ? (
        <div>
          <dt>MCP servers</dt>
          <dd>
            <ul className="tool-list" aria-label="MCP servers">
              {servers.map((server) => (
                <li key={server.name} className="tool-list__item" data-mcp-server={server.name}>
                  <code className="chip">{server.name}</code>
                  <span className="tool-list__url">{server.url}</span>
                  {server.approval === "required" ? (
                    <Badge tone="warning">Every tool needs approval</Badge>
                  ) : (server.tool_approvals ?? []).length > 0 ? (
                    <span>
                      Needs approval:{" "}
                      {(server.tool_approvals ?? []).map((tool) => (
                        <code key={tool} className="chip">
                          {tool}
                        </code>
                      ))}
                    </span>
                  ) : null}
                </li>
              ))}
            </ul>
          </dd>
        </div>
      ) : null}
    </>
  );
}
