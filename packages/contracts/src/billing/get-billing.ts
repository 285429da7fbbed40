import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { billingPeriod, fleetBudget } from "./billing.ts";

export const getBilling = defineOperation({
  id: "billing.get",
  method: "GET",
  path: "/v1/tenants/me/billing",
  summary: "Read the tenant's balance and spend",
  description:
    "The balance (operator credits less every charge; it may fall below zero), what this period's charges add up to, each fleet's budget and spend this period, and the spend per day per fleet this period. The period is the calendar month in UTC.",
  tags: ["Billing"],
  scope: "billing:read",
  credentials: tenantCredentials,
  successStatus: 200,
  output: z
    .object({
      balance_nanos: z.number().int(),
      period: billingPeriod,
      period_start: epochMs,
      period_end: epochMs,
      spend_this_period_nanos: z.number().int(),
      fleets: z.array(fleetBudget),
      /** This period's spend per UTC day and fleet; days and fleets without charges are absent. */
      daily: z.array(
        z
          .object({ day: z.string(), fleet_id: z.string(), spend_nanos: z.number().int() })
          .meta({ id: "DailySpend" }),
      ),
    })
    .meta({ id: "Billing" }),
});
