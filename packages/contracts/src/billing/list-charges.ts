import { cursorParam, page, queryInt, uuidv7 } from "../common.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { charge } from "./billing.ts";

export const listCharges = defineOperation({
  id: "billing.listCharges",
  method: "GET",
  path: "/v1/tenants/me/billing/charges",
  summary: "List the tenant's charges",
  description:
    "One charge per fleet event a runner reported, newest first, cursor-paged: follow next_cursor until it is null. fleet_id narrows the list to one fleet.",
  tags: ["Billing"],
  scope: "billing:read",
  credentials: tenantCredentials,
  successStatus: 200,
  query: {
    starting_after: cursorParam.optional(),
    limit: queryInt("limit", 1, 100).default(50),
    fleet_id: uuidv7("fleet_id").optional(),
  },
  output: page(charge).meta({ id: "ChargePage" }),
});
