import type { ApprovalRule, Lease } from "@fleet/contracts";
import { readPolicy } from "../approval-policies/policy.ts";
import type { ServiceContext } from "../shared/context.ts";

/** The gate_kind of the gates an agent's call of `tool` opens (docs/decisions/agent-executor.md). */
export function toolGateKind(tool: string): string {
  return `tool.${tool}`;
}

/**
 * Whether a rule of the policy gates calls of `tool`: it must name the tool's gate kind in
 * `match.gate_kinds` (a rule matching any kind sets the terms of gates opened anyway; it does not stop every
 * tool call), and its `match.blast_radius`, when given, must hold the blast radius the gate would carry.
 */
export function policyGatesTool(rules: readonly ApprovalRule[], tool: string, blastRadius: string): boolean {
  const kind = toolGateKind(tool);
  return rules.some(
    (rule) =>
      rule.match.gate_kinds?.includes(kind) === true &&
      (rule.match.blast_radius === undefined || rule.match.blast_radius.includes(blastRadius)),
  );
}

/** The blast radius a tool's gate carries when its definition states none. */
export function defaultBlastRadius(tool: string): string {
  return `Whatever ${tool} does with these arguments.`;
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
  const blast = lease.fleet.tool_blast_radius ?? {};
  for (const tool of lease.fleet.tools) {
    if (policyGatesTool(rules, tool, blast[tool] ?? defaultBlastRadius(tool))) marked.add(tool);
  }
  return { ...lease, fleet: { ...lease.fleet, tool_approvals: [...marked] } };
}
