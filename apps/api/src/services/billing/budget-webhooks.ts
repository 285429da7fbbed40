import { eq, fleets, type Tx } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { recordWebhookEvent } from "../webhook-endpoints/outbox.ts";
import type { BudgetAlert } from "./alerts.ts";
import { toFleetBudget } from "./budgets.ts";

/**
 * The percent whose alert row marks the period budget spent: recorded whether or not the fleet's alert
 * percents name it, so `budget.exhausted` goes out once a period (the old notice still goes only for the
 * percents named).
 */
export const EXHAUSTED_PERCENT = 100;

/**
 * Writes the outbox events of the alert rows a write just recorded, in its transaction:
 * `budget.threshold_crossed` for each percent the fleet names, and `budget.exhausted` for the spent
 * budget (its 100 % row). Data is the fleet's budget as its read shows it, with the percent crossed and
 * the spend that crossed it (a running lease's usage counts before its report charges it). Every event's
 * id is minted here, subscribed or not; answers whether any was written, and the id of each named
 * percent's `budget.threshold_crossed`, which that percent's `budget_alert` frame carries as `webhook_id`.
 */
export async function budgetWebhookEvents(
  tx: Tx,
  fleet: { id: string; tenantId: string; workspaceId: string; percents: number[] },
  recorded: readonly BudgetAlert[],
  at: number,
): Promise<{ written: boolean; crossedIds: Map<number, string> }> {
  let written = false;
  const crossedIds = new Map<number, string>();
  const sends = recorded.flatMap((alert) => [
    ...(fleet.percents.includes(alert.percent) ? [{ alert, type: "budget.threshold_crossed" as const }] : []),
    ...(alert.percent === EXHAUSTED_PERCENT ? [{ alert, type: "budget.exhausted" as const }] : []),
  ]);
  for (const { alert, type } of sends) {
    const id = newId(at);
    if (type === "budget.threshold_crossed") crossedIds.set(alert.percent, id);
    const recordedOne = await recordWebhookEvent(
      tx,
      {
        tenantId: fleet.tenantId,
        workspaceId: fleet.workspaceId,
        fleetId: fleet.id,
        type,
        resource: `fleet_budget:${fleet.id}`,
        readPath: `/v1/workspaces/${fleet.workspaceId}/fleets/${fleet.id}/budget`,
        at,
        id,
      },
      async () => {
        const [row] = await tx.select().from(fleets).where(eq(fleets.id, fleet.id));
        return {
          ...toFleetBudget(row!, alert.period),
          percent: alert.percent,
          crossed_at_spend_nanos: alert.spend_nanos,
        };
      },
    );
    written = recordedOne || written;
  }
  return { written, crossedIds };
}
