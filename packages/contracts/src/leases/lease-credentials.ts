import { z } from "zod";
import { epochMs } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { fencingToken, leaseIdParam } from "./lease.ts";

/** One declared secret as its run receives it: its data, or `missing` when the workspace holds none. */
export const leaseCredential = z
  .object({
    name: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
    missing: z.literal(true).optional(),
  })
  .meta({ id: "LeaseCredential" });

export const leaseCredentials = defineOperation({
  id: "leases.credentials",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/credentials",
  summary: "Receive a lease's credentials",
  description:
    "Answers the values of the workspace secrets the fleet's definition declares (requirements.credentials), and no other, while the caller is the lease's current holder: a superseded or ended holder gets 409 UZ-RUN-005, a degraded runner 409 UZ-EXEC-017. A declared name the workspace does not hold is answered as {name, missing: true}. Each delivery writes one audit row (lease.credentials: names, never values); the answer is never cached (Cache-Control: no-store). Every delivered value is masked as [secret:NAME] in what the run sends back.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409, 503],
  params: leaseIdParam,
  body: { fencing_token: fencingToken },
  output: z
    .object({ lease_id: z.string(), credentials: z.array(leaseCredential), expires_at: epochMs })
    .meta({ id: "LeaseCredentials" }),
});
