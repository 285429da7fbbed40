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
 * Adds to a lease's `tool_approvals` the declared tools the workspace's approval policy gates. Read only for
 * fleets that declare tools (one read of the policy by its key): a lease of a fleet with none pays nothing.
 */
export async function withPolicyGates(ctx: ServiceContext, lease: Lease): Promise<Lease> {
  if (lease.fleet.tools.length === 0) return lease;
  const policy = await readPolicy(ctx.db, lease.workspace_id);
  const rules = (policy?.rules ?? []) as ApprovalRule[];
  if (rules.length === 0) return lease;
  const marked = new Set(lease.fleet.tool_approvals ?? []);
  for (const tool of lease.fleet.tools) {
    if (policyGatesTool(rules, tool, toolBlastRadius(lease.fleet, tool))) marked.add(tool);
  }
  return { ...lease, fleet: { ...lease.fleet, tool_approvals: [...marked] } };
}
