import { Problem } from "@fleet/contracts";
import { type AssignedPolicy, eq, runners } from "@fleet/db";
import type { Actor } from "../shared/audit.ts";
import { notifyPrincipalChange, type ServiceContext } from "../shared/context.ts";
import { degradedVerdict } from "./policy.ts";
import { auditRunner, checkAssignable, requireRunnerView, runnerNotFound } from "./runner-admin.ts";
import { recordRunnerEvent } from "./runner-events.ts";

const statusEvents = {
  cordoned: "runner_cordoned",
  draining: "runner_draining",
  revoked: "runner_revoked",
  active: null,
} as const;

/**
 * Re-assigns policy or changes the admin state. The degraded verdict is recomputed here against the
 * host's last report, so the answer is the verdict the next lease request meets.
 */
export async function updateRunner(
  ctx: ServiceContext,
  actor: Actor,
  input: {
    id: string;
    assigned_policy?: AssignedPolicy;
    status?: "active" | "cordoned" | "draining" | "revoked";
  },
  mayRevoke: boolean,
) {
  if (input.status === "revoked" && !mayRevoke) {
    throw new Problem("UZ-AUTH-022", { detail: "Revoking a runner needs the scope runner:admin." });
  }
  if (input.assigned_policy) checkAssignable(ctx, input.assigned_policy);
  const now = ctx.now();
  const revoked = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(runners).where(eq(runners.id, input.id)).for("update");
    if (row === undefined) throw runnerNotFound(input.id);
    if (row.adminState === "revoked") {
      throw new Problem("UZ-RUN-017", { detail: "The runner is revoked.", current_state: "revoked" });
    }
    const policy = input.assigned_policy ?? row.assignedPolicy;
    const verdict = degradedVerdict(policy, row.capabilityReport);
    const status = input.status ?? row.adminState;
    await tx
      .update(runners)
      .set({
        assignedPolicy: policy,
        degraded: verdict.degraded,
        degradedReason: verdict.reason,
        adminState: status,
        revokedAt: status === "revoked" ? now : null,
        updatedAt: now,
      })
      .where(eq(runners.id, row.id));
    if (input.assigned_policy) {
      await recordRunnerEvent(tx, row.id, "runner_policy_assigned", now, {
        assigned_policy: policy,
        degraded: verdict.degraded,
        degraded_reason: verdict.reason,
      });
    }
    const event = statusEvents[status];
    if (status !== row.adminState && event !== null) await recordRunnerEvent(tx, row.id, event, now);
    await auditRunner(tx, actor, now, "runner.update", row.id, {
      ...(input.assigned_policy ? { assigned_policy: policy } : {}),
      ...(input.status ? { status: { from: row.adminState, to: status } } : {}),
    });
    if (status === "revoked") await notifyPrincipalChange(tx, `runner:${row.id}`);
    return status === "revoked";
  });
  if (revoked) await ctx.principalsChanged(`runner:${input.id}`);
  return requireRunnerView(ctx, input.id);
}
