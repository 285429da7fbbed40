import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { fencingToken, leaseIdParam } from "./lease.ts";

export const renewLease = defineOperation({
  id: "leases.renew",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/renew",
  summary: "Extend a lease",
  description:
    "Extends the lease to min(now + 30 s, its creation + 12 h). A superseded holder gets 409 UZ-RUN-005. A run that has reached its budget (its usage, reported on the usage route, against the fleet's per-run cap or what is left of the fleet's budget this period) is not extended: 409 UZ-BUDGET-001 tells the runner to stop and report.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  params: leaseIdParam,
  body: { fencing_token: fencingToken },
  output: z.object({ lease_id: z.string(), expires_at: epochMs }).meta({ id: "RenewedLease" }),
});
