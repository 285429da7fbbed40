import { Problem } from "@fleet/contracts";
import { type CapabilityReport, eq, resultRows, runners, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { degradedVerdict, ONLINE_WINDOW_MS } from "./policy.ts";
import { recordRunnerEvent } from "./runner-events.ts";
import { liveLeaseCount, runnerStatus } from "./runner-view.ts";

/**
 * Marks the runner seen and judges its report against its policy. A gap of more than the online
 * window since the last heartbeat is recorded as the runner having gone offline (unless the offline sweep
 * already did, whose mark this clears), then online again.
 */
export async function heartbeat(ctx: ServiceContext, runnerId: string, report: CapabilityReport | undefined) {
  const now = ctx.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(runners).where(eq(runners.id, runnerId)).for("update");
    if (current === undefined)
      throw new Problem("UZ-AUTH-002", { detail: "The runner token does not verify." });
    const capabilities = report ?? current.capabilityReport;
    const verdict = degradedVerdict(current.assignedPolicy, capabilities);
    const [updated] = await tx
      .update(runners)
      .set({
        capabilityReport: capabilities,
        degraded: verdict.degraded,
        degradedReason: verdict.reason,
        lastHeartbeatAt: now,
        offlineAt: null,
        updatedAt: now,
      })
      .where(eq(runners.id, runnerId))
      .returning();
    const last = current.lastHeartbeatAt;
    if (last !== null && now - last > ONLINE_WINDOW_MS && current.offlineAt === null) {
      await recordRunnerEvent(tx, runnerId, "runner_offline", last + ONLINE_WINDOW_MS);
    }
    if (last === null || now - last > ONLINE_WINDOW_MS || current.offlineAt !== null) {
      await recordRunnerEvent(tx, runnerId, "runner_online", now, {
        degraded: verdict.degraded,
        degraded_reason: verdict.reason,
      });
    }
    return updated!;
  });
  const active = await liveLeaseCount(ctx, runnerId, now);
  if (row.adminState === "draining" && active === 0) {
    await recordDrainedOnce(ctx, runnerId, now);
  }
  return {
    status: runnerStatus(row, active),
    assigned_policy: row.assignedPolicy,
    degraded: row.degraded,
    degraded_reason: row.degradedReason,
  };
}

/** The first heartbeat that finds a draining runner idle records that it drained. */
async function recordDrainedOnce(ctx: ServiceContext, runnerId: string, now: number): Promise<void> {
  const rows = await ctx.db.execute(
    sql`select 1 from runner_events where runner_id = ${runnerId} and event_type = 'runner_drained'
        and created_at >= coalesce((select max(created_at) from runner_events
          where runner_id = ${runnerId} and event_type = 'runner_draining'), 0) limit 1`,
  );
  if (resultRows(rows).length === 0) await recordRunnerEvent(ctx.db, runnerId, "runner_drained", now);
}
