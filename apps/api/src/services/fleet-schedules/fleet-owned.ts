import { Problem } from "@fleet/contracts";
import { and, eq, schedules, type Tx } from "@fleet/db";
import { scheduleNotFound } from "../schedules/schedule-view.ts";

/** The fleet's schedule, for a fenced change; only schedules the fleet created may be changed by it. */
export async function fleetOwned(tx: Tx, fleetId: string, scheduleId: string, mustBeFleets: boolean) {
  const [row] = await tx
    .select()
    .from(schedules)
    .where(and(eq(schedules.id, scheduleId), eq(schedules.fleetId, fleetId)))
    .for("update");
  if (row === undefined) throw scheduleNotFound(scheduleId);
  if (mustBeFleets && row.source !== "fleet") {
    throw new Problem("UZ-SCHED-010", {
      detail: `The schedule's source is ${row.source}; a fleet can change only schedules it created.`,
    });
  }
  return row;
}
