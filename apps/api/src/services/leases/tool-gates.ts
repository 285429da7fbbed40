import { type ApprovalRule, type Lease, toolBlastRadius, toolGateKind } from "@fleet/contracts";
import { matchRule, readPolicy } from "../approval-policies/policy.ts";
import type { ServiceContext } from "../shared/context.ts";

/**
 * Whether a rule of the policy gates calls of `tool`: of the rules that name the tool's gate kind in
 * `match.gate_kinds` (a rule matching any kind sets the terms of gates opened anyway; it does not stop every
 * tool call), one matches the gate the call would open, its blast radius included.
 */
export function policyGatesTool(rules: readonly ApprovalRule[], tool: string, blastRadius: string): boolean {
  const kind = toolGateKind(tool);
  const naming = rules.filter((rule) => rule.match.gate_kinds?.includes(kind) === true);
  return matchRule(naming, { gate_kind: kind, blast_radius: blastRadius }) !== undefined;
}

/**
 * Adds to a lease's `tool_approvals` the declared tools the workspace's approval policy gates, and to each
 * MCP server's `tool_approvals` the server's tools a rule names (`tool.<server>__<tool>`, the name the
 * runner offers the tool under, hence the kind of the gate it opens): a server's tools are known only
 * once the runner connects, so the policy's own names are what can be matched here. Read only for fleets
 * that declare tools or MCP servers (one read of the policy by its key): a lease of a fleet with neither
 * pays nothing.
 */
export async function withPolicyGates(ctx: ServiceContext, lease: Lease): Promise<Lease> {
  const servers = lease.fleet.mcp_servers ?? [];
  if (lease.fleet.tools.length === 0 && servers.length === 0) return lease;
  const policy = await readPolicy(ctx.db, lease.workspace_id);
  const rules = (policy?.rules ?? []) as ApprovalRule[];
  if (rules.length === 0) return lease;
  const gates = (tool: string) => policyGatesTool(rules, tool, toolBlastRadius(lease.fleet, tool));
  const marked = new Set(lease.fleet.tool_approvals ?? []);
  for (const tool of lease.fleet.tools) if (gates(tool)) marked.add(tool);
  const named = rules.flatMap((rule) => rule.match.gate_kinds ?? []);
  const mcp = servers.map((server) => {
    const prefix = `tool.${server.name}__`;
    const gated = new Set(server.tool_approvals);
    for (const kind of named) {
      const tool = kind.slice(prefix.length);
      if (kind.startsWith(prefix) && tool !== "" && gates(`${server.name}__${tool}`)) gated.add(tool);
    }
    return gated.size === server.tool_approvals.length ? server : { ...server, tool_approvals: [...gated] };
  });
  return {
    ...lease,
    fleet: {
      ...lease.fleet,
      tool_approvals: [...marked],
      ...(lease.fleet.mcp_servers === undefined ? {} : { mcp_servers: mcp }),
    },
  };
}
