import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { fleetBudget } from "./billing.ts";

export const getBudget = defineOperation({
  id: "billing.getBudget",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/budget",
  summary: "Read a fleet's budget",
  description:
    "The fleet's budget per period, its per-run cap, its alert percents and what it spent this period.",
  tags: ["Billing"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: fleetParams,
  output: fleetBudget,
});
