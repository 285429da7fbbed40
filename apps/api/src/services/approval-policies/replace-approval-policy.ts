import { type ApprovalRule, Problem } from "@fleet/contracts";
import { and, approvalPolicies, eq, inArray, memberships, type Tx } from "@fleet/db";
import { type Resolve, systemResolve } from "../../runtime/public-address.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { syncNoticeEndpoint } from "../webhook-endpoints/notice-endpoint.ts";
import { toPolicyView } from "./policy.ts";
import { verifyWebhookUrl } from "./webhook-url.ts";

export interface PolicyInput {
  workspace_id: string;
  rules: ApprovalRule[];
  escalation_webhook_url: string | null;
  allow_self_approval?: boolean;
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

/**
 * Every person the rules name must be a member of the tenant, and a rule naming its approvers must name
 * people of at least as many invitation families as it takes approvals: a quorum counts one approval per
 * family, so fewer could never meet it.
 */
async function checkMembers(tx: Tx, tenantId: string, rules: readonly ApprovalRule[]): Promise<void> {
  const named = [
    ...new Set(rules.flatMap((r) => [...(r.approvers ?? []), ...(r.escalation_approvers ?? [])])),
  ];
  if (named.length === 0) return;
  const found = await tx
    .select({ userId: memberships.userId, familyId: memberships.familyId })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), inArray(memberships.userId, named)));
  const familyOf = new Map(found.map((row) => [row.userId, row.familyId ?? row.userId]));
  const strangers = named.filter((id) => !familyOf.has(id));
  if (strangers.length > 0) {
    throw invalid(`Not members of this tenant: ${strangers.slice(0, 5).join(", ")}.`);
  }
  for (const rule of rules) {
    if (rule.approvers === undefined) continue;
    const people = [...rule.approvers, ...(rule.escalation_approvers ?? [])];
    const families = new Set(people.map((id) => familyOf.get(id)));
    if (rule.required_approvals > families.size) {
      throw invalid(
        `Rule "${rule.name}" requires ${rule.required_approvals} approvals but the people it names belong to ${families.size} invitation ${families.size === 1 ? "family" : "families"}, and a family counts once.`,
      );
    }
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
      allowSelfApproval: input.allow_self_approval ?? false,
      updatedAt: now,
      updatedBy: actor.principal,
    };
    const [stored] = await tx
      .insert(approvalPolicies)
      .values({ workspaceId: input.workspace_id, tenantId, ...values })
      .onConflictDoUpdate({ target: approvalPolicies.workspaceId, set: values })
      .returning();
    // The escalation URL is delivered to as the workspace's notice endpoint, through the outbox.
    await syncNoticeEndpoint(tx, { tenantId, workspaceId: input.workspace_id }, url, actor.principal, now);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId,
      workspaceId: input.workspace_id,
      action: "approval_policy.replace",
      target: `approval_policy:${input.workspace_id}`,
      details: {
        rules: input.rules.map((r) => r.name),
        escalation_webhook: url !== null,
        allow_self_approval: input.allow_self_approval ?? false,
      },
    });
    return stored!;
  });
  return toPolicyView(input.workspace_id, row);
}
