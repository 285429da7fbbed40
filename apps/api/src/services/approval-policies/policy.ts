import { type ApprovalPolicy, type ApprovalRule, EXTENSION_DEFAULT_MS, Problem } from "@fleet/contracts";
import { and, approvalPolicies, type Database, eq, inArray, memberships, type Tx } from "@fleet/db";
import { type Resolve, systemResolve } from "../../runtime/public-address.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { verifyWebhookUrl } from "./webhook-url.ts";

export interface PolicyInput {
  workspace_id: string;
  rules: ApprovalRule[];
  escalation_webhook_url: string | null;
}

type PolicyRow = typeof approvalPolicies.$inferSelect;

function toPolicyView(workspaceId: string, row: PolicyRow | undefined): ApprovalPolicy {
  return {
    workspace_id: workspaceId,
    rules: (row?.rules ?? []) as ApprovalRule[],
    escalation_webhook_url: row?.escalationWebhookUrl ?? null,
    updated_at: row?.updatedAt ?? null,
    updated_by: row?.updatedBy ?? null,
  };
}

/** The workspace's policy row, if one was ever set. */
export async function readPolicy(db: Database | Tx, workspaceId: string): Promise<PolicyRow | undefined> {
  const [row] = await db.select().from(approvalPolicies).where(eq(approvalPolicies.workspaceId, workspaceId));
  return row;
}

export async function getApprovalPolicy(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  await requireWorkspace(ctx.db, tenantId, workspaceId);
  return toPolicyView(workspaceId, await readPolicy(ctx.db, workspaceId));
}

function invalid(detail: string): Problem {
  return new Problem("UZ-APPROVAL-002", { detail });
}

/** What no schema can say about a set of rules: unique names, a quorum that can be reached. */
function checkRules(rules: readonly ApprovalRule[]): void {
  const names = new Set<string>();
  for (const rule of rules) {
    if (names.has(rule.name)) throw invalid(`Two rules are named "${rule.name}"; names must be unique.`);
    names.add(rule.name);
    const named = new Set([...(rule.approvers ?? []), ...(rule.escalation_approvers ?? [])]);
    if (rule.approvers !== undefined && rule.required_approvals > named.size) {
      throw invalid(
        `Rule "${rule.name}" requires ${rule.required_approvals} approvals but names only ${named.size} people who may give them.`,
      );
    }
    if (rule.escalation_approvers !== undefined && rule.escalate_at_fraction === undefined) {
      throw invalid(`Rule "${rule.name}" names escalation_approvers but no escalate_at_fraction.`);
    }
  }
}

/** Every person the rules name must be a member of the tenant. */
async function checkMembers(tx: Tx, tenantId: string, rules: readonly ApprovalRule[]): Promise<void> {
  const named = [
    ...new Set(rules.flatMap((r) => [...(r.approvers ?? []), ...(r.escalation_approvers ?? [])])),
  ];
  if (named.length === 0) return;
  const found = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), inArray(memberships.userId, named)));
  const members = new Set(found.map((row) => row.userId));
  const strangers = named.filter((id) => !members.has(id));
  if (strangers.length > 0) {
    throw invalid(`Not members of this tenant: ${strangers.slice(0, 5).join(", ")}.`);
  }
}

/** Replaces the whole policy; audited in the same transaction. Pending gates keep the rule they opened with. */
export async function replaceApprovalPolicy(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  input: PolicyInput,
  resolve: Resolve = systemResolve,
) {
  checkRules(input.rules);
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const url =
    input.escalation_webhook_url === null
      ? null
      : await verifyWebhookUrl(input.escalation_webhook_url, ctx.config.devMode, resolve);
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    await checkMembers(tx, tenantId, input.rules);
    const values = {
      rules: input.rules as unknown as Record<string, unknown>[],
      escalationWebhookUrl: url,
      updatedAt: now,
      updatedBy: actor.principal,
    };
    const [stored] = await tx
      .insert(approvalPolicies)
      .values({ workspaceId: input.workspace_id, tenantId, ...values })
      .onConflictDoUpdate({ target: approvalPolicies.workspaceId, set: values })
      .returning();
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspace_id,
      action: "approval_policy.replace",
      target: `approval_policy:${input.workspace_id}`,
      details: { rules: input.rules.map((r) => r.name), escalation_webhook: url !== null },
    });
    return stored!;
  });
  return toPolicyView(input.workspace_id, row);
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
  };
}
