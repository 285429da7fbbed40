import { Problem } from "@fleet/contracts";
import { and, approvalGates, eq, isNull } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

/**
 * Records, once, that the lease's holder starts the gate's approved action. Fenced, and conditional on
 * the column being unset: of a run and its reclaimed successor, only the first lease to ask gets
 * `first: true`, so an approved action runs at most once whichever runner holds the work. The same lease
 * asking again (a retry whose first answer was lost) is told `first: true` again.
 */
export async function markGateRan(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; gate_id: string; fencing_token: number },
) {
  const now = ctx.now();
  return fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const scope = and(eq(approvalGates.id, input.gate_id), eq(approvalGates.fleetId, lease.fleetId));
    const [gate] = await tx
      .select({
        status: approvalGates.status,
        actionRanAt: approvalGates.actionRanAt,
        actionRanLeaseId: approvalGates.actionRanLeaseId,
      })
      .from(approvalGates)
      .where(scope);
    if (gate === undefined) {
      throw new Problem("UZ-APPROVAL-001", {
        detail: `No approval gate ${input.gate_id} for this lease's fleet.`,
      });
    }
    if (gate.status !== "approved") {
      throw new Problem("UZ-APPROVAL-005", {
        detail: `The gate is ${gate.status}; only an approved action may run.`,
        current_state: gate.status,
      });
    }
    if (gate.actionRanAt !== null) {
      const first = gate.actionRanLeaseId === lease.id;
      return { gate_id: input.gate_id, action_ran_at: gate.actionRanAt, first };
    }
    const [marked] = await tx
      .update(approvalGates)
      .set({ actionRanAt: now, actionRanLeaseId: lease.id })
      .where(and(scope, isNull(approvalGates.actionRanAt)))
      .returning({ actionRanAt: approvalGates.actionRanAt });
    return { gate_id: input.gate_id, action_ran_at: marked?.actionRanAt ?? now, first: marked !== undefined };
  });
}
