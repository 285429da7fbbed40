import { Problem } from "@fleet/contracts";
import { eq, runners } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { liveLeaseCount, runnerStatus } from "./runner-view.ts";

export async function getSelf(ctx: ServiceContext, runnerId: string) {
  const [row] = await ctx.db.select().from(runners).where(eq(runners.id, runnerId));
  if (row === undefined) throw new Problem("UZ-AUTH-002", { detail: "The runner token does not verify." });
  const active = await liveLeaseCount(ctx, runnerId, ctx.now());
  return {
    runner_id: row.id,
    host_id: row.hostId,
    labels: row.labels,
    assigned_policy: row.assignedPolicy,
    status: runnerStatus(row, active),
    degraded: row.degraded,
    degraded_reason: row.degradedReason,
  };
}
