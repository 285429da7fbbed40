import {
  type ApprovalPolicy,
  type ApprovalRule,
  blastReadsHigh,
  EXTENSION_DEFAULT_MS,
} from "@fleet/contracts";
import { approvalPolicies, type Database, eq, type Tx } from "@fleet/db";

type PolicyRow = typeof approvalPolicies.$inferSelect;

export function toPolicyView(workspaceId: string, row: PolicyRow | undefined): ApprovalPolicy {
  return {
    workspace_id: workspaceId,
    rules: (row?.rules ?? []) as ApprovalRule[],
    escalation_webhook_url: row?.escalationWebhookUrl ?? null,
    allow_self_approval: row?.allowSelfApproval ?? false,
    updated_at: row?.updatedAt ?? null,
    updated_by: row?.updatedBy ?? null,
  };
}

/** The workspace's policy row, if one was ever set. */
export async function readPolicy(db: Database | Tx, workspaceId: string): Promise<PolicyRow | undefined> {
  const [row] = await db.select().from(approvalPolicies).where(eq(approvalPolicies.workspaceId, workspaceId));
  return row;
}

/** The first rule whose match fits the gate: each list given must hold the gate's value. */
export function matchRule(
  rules: readonly ApprovalRule[],
  gate: { gate_kind: string; blast_radius: string },
): ApprovalRule | undefined {
  return rules.find(
    (rule) =>
      (rule.match.gate_kinds === undefined || rule.match.gate_kinds.includes(gate.gate_kind)) &&
      (rule.match.blast_radius === undefined || rule.match.blast_radius.includes(gate.blast_radius)),
  );
}

/** What a gate copies from its rule when it opens: the columns of approval_gates the policy decides. */
export interface GateTerms {
  ruleName: string | null;
  requiredApprovals: number;
  approvers: string[] | null;
  timeoutAt: number;
  escalateAt: number | null;
  escalationApprovers: string[] | null;
  maxExtensionMs: number;
  allowSelfApproval: boolean;
  highBlast: boolean;
}

/**
 * The terms of a gate opening now under the workspace's policy. The rule's timeout, when it has one,
 * replaces the runner's; escalation falls at the given fraction of it.
 */
export async function gateTerms(
  tx: Tx,
  workspaceId: string,
  gate: { gate_kind: string; blast_radius: string; timeout_ms: number },
  now: number,
): Promise<GateTerms> {
  const policy = await readPolicy(tx, workspaceId);
  const rule = matchRule((policy?.rules ?? []) as ApprovalRule[], gate);
  const timeoutMs = rule?.timeout_ms ?? gate.timeout_ms;
  const fraction = rule?.escalate_at_fraction;
  return {
    ruleName: rule?.name ?? null,
    requiredApprovals: rule?.required_approvals ?? 1,
    approvers: rule?.approvers ?? null,
    timeoutAt: now + timeoutMs,
    escalateAt: fraction === undefined ? null : now + Math.max(1, Math.floor(timeoutMs * fraction)),
    escalationApprovers: rule?.escalation_approvers ?? null,
    maxExtensionMs: rule?.max_extension_ms ?? EXTENSION_DEFAULT_MS,
    allowSelfApproval: policy?.allowSelfApproval ?? false,
    highBlast: rule?.high_blast ?? blastReadsHigh(gate.blast_radius),
  };
}
