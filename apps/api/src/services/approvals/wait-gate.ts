import type { Socket } from "node:net";
import { Problem } from "@fleet/contracts";
import { and, approvalGates, type Database, eq, leases } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { gatesResolved } from "../shared/frames.ts";
import { type GateRow, toRunnerGate } from "./gate-view.ts";
import { timeOutGates } from "./sweep.ts";
import { approvalsOf } from "./votes.ts";

/** A waiting read re-reads the gate at least this often, whatever the notifications say. */
const REPOLL_MS = 5_000;

/**
 * The gate, if it belongs to the fleet of a lease the runner holds or held. Not fenced: reading an
 * answer changes nothing, and a runner that lost its lease learns the answer from the gate anyway.
 */
async function readGate(db: Database, runnerId: string, leaseId: string, gateId: string): Promise<GateRow> {
  const [lease] = await db
    .select({ fleetId: leases.fleetId })
    .from(leases)
    .where(and(eq(leases.id, leaseId), eq(leases.runnerId, runnerId)));
  if (lease === undefined)
    throw new Problem("UZ-RUN-001", { detail: `This runner holds no lease ${leaseId}.` });
  const [gate] = await db
    .select()
    .from(approvalGates)
    .where(and(eq(approvalGates.id, gateId), eq(approvalGates.fleetId, lease.fleetId)));
  if (gate === undefined) {
    throw new Problem("UZ-APPROVAL-001", { detail: `No approval gate ${gateId} for this lease's fleet.` });
  }
  return gate;
}

/**
 * Reads the gate, holding the request open up to `waitMs` while it is pending. An answer on any
 * instance wakes it at once (the gate signal's NOTIFY); it re-reads every few seconds as a net, and stops
 * waiting when the runner hangs up or the instance starts shutting down (the runner holds its lease and
 * asks again, elsewhere). An extension of the deadline also ends the wait, so the runner reads
 * the new `timeout_at` at once.
 */
export async function waitForGate(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; gate_id: string; wait_ms: number },
  connection: Socket | null = null,
) {
  const deadline = ctx.now() + input.wait_ms;
  let firstTimeoutAt: number | null = null;
  for (;;) {
    const left = deadline - ctx.now();
    const wait =
      left > 0 && !connection?.destroyed && !ctx.gates.draining
        ? ctx.gates.waiter(input.gate_id, Math.min(left, REPOLL_MS), connection)
        : null;
    let gate: GateRow;
    try {
      gate = await readGate(ctx.db, runnerId, input.lease_id, input.gate_id);
      // An overdue gate times out on its reader too, so the deadline holds while the sweeper cannot run
      // (the scheduler unreachable); the conditional write keeps it to one outcome.
      if (gate.status === "pending" && gate.timeoutAt <= ctx.now()) {
        gatesResolved(ctx, await timeOutGates(ctx.db, ctx.now(), gate.id));
        gate = await readGate(ctx.db, runnerId, input.lease_id, input.gate_id);
      }
    } catch (error) {
      wait?.cancel();
      throw error;
    }
    firstTimeoutAt ??= gate.timeoutAt;
    if (gate.status !== "pending" || wait === null || gate.timeoutAt !== firstTimeoutAt) {
      wait?.cancel();
      const approvals = await approvalsOf(ctx.db, [gate.id]);
      return toRunnerGate(gate, approvals.get(gate.id) ?? []);
    }
    await wait.promise;
  }
}
