import { z } from "zod";
import { epochMs, uuidv7 } from "../common.ts";
import { fencingToken, leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";

export const markGateRan = defineOperation({
  id: "approvals.markRan",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/gates/{gate_id}/ran",
  summary: "Say an approved action is starting",
  description:
    "Records, once, that the lease's holder starts the gate's approved action, just before it does. first is true for the call that recorded it; a reclaimed run that finds the gate approved and the action already started gets first false and must not run it again. Fenced: a superseded holder gets 409 UZ-RUN-005. A gate that is not approved is 409 UZ-APPROVAL-005.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  params: { ...leaseIdParam, gate_id: uuidv7("gate_id") },
  body: { fencing_token: fencingToken },
  output: z
    .object({
      gate_id: z.string(),
      /** When the action was first said to start. */
      action_ran_at: epochMs,
      /** Whether this call recorded it (false: an earlier holder already started the action). */
      first: z.boolean(),
    })
    .meta({ id: "GateRan" }),
});
