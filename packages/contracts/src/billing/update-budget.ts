import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { alertPercents, fleetBudget, nanos } from "./billing.ts";

export const updateBudget = defineOperation({
  id: "billing.updateBudget",
  method: "PATCH",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/budget",
  summary: "Set a fleet's budget",
  description:
    "Sets the fleet's budget per period (calendar month, UTC), its cap per run and the percents of the period budget at which alerts go out; null removes a budget, an absent field stays as it is. A fleet whose period budget is spent takes no new work; raising the budget resumes it at once. Alerts already sent this period for percents the new budget puts out of reach are forgotten, so they go out again when crossed.",
  tags: ["Billing"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 200,
  params: fleetParams,
  body: {
    period_budget_nanos: nanos("period_budget_nanos").nullable().optional(),
    run_budget_nanos: nanos("run_budget_nanos").nullable().optional(),
    alert_percents: alertPercents.optional(),
  },
  output: fleetBudget,
});
