import { type AssignedPolicy, runners } from "@fleet/db";
import { mintSecret, RUNNER_TOKEN_PREFIX, sha256Hex } from "../../auth/tokens.ts";
import { newId } from "../../runtime/ids.ts";
import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { degradedVerdict } from "./policy.ts";
import { auditRunner, checkAssignable } from "./runner-admin.ts";
import { recordRunnerEvent } from "./runner-events.ts";

export async function enrollRunner(
  ctx: ServiceContext,
  actor: Actor,
  input: { host_id: string; assigned_policy: AssignedPolicy; labels: string[] },
) {
  checkAssignable(ctx, input.assigned_policy);
  const now = ctx.now();
  const id = newId(now);
  const token = mintSecret(RUNNER_TOKEN_PREFIX);
  const labels = [...new Set(input.labels)];
  const verdict = degradedVerdict(input.assigned_policy, null);
  await ctx.db.transaction(async (tx) => {
    await tx.insert(runners).values({
      id,
      hostId: input.host_id,
      tokenHash: sha256Hex(token),
      labels,
      assignedPolicy: input.assigned_policy,
      degraded: verdict.degraded,
      degradedReason: verdict.reason,
      createdAt: now,
      updatedAt: now,
    });
    await recordRunnerEvent(tx, id, "runner_registered", now, { host_id: input.host_id });
    await recordRunnerEvent(tx, id, "runner_policy_assigned", now, {
      assigned_policy: input.assigned_policy,
    });
    await auditRunner(tx, actor, now, "runner.enroll", id, {
      host_id: input.host_id,
      assigned_policy: input.assigned_policy,
    });
  });
  return {
    runner_id: id,
    runner_token: token,
    host_id: input.host_id,
    labels,
    assigned_policy: input.assigned_policy,
    created_at: now,
  };
}
