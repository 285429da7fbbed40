import { z } from "zod";
import { leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";
import { integrationGrant } from "./integration-grant.ts";

export const listLeaseGrants = defineOperation({
  id: "integrationGrants.listForLease",
  method: "GET",
  path: "/v1/runners/me/leases/{lease_id}/integration-grants",
  summary: "List the leased fleet's integration grants",
  description:
    "Every grant of the fleet the lease runs, so an executor knows which services it may use (status approved) and which are asked for. The lease must be the runner's and still running: a lease that ended or was superseded is 409 UZ-RUN-005.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  params: leaseIdParam,
  output: z.object({ items: z.array(integrationGrant) }).meta({ id: "LeaseIntegrationGrants" }),
});
