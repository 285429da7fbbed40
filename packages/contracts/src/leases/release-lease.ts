import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { fencingToken, leaseIdParam } from "./lease.ts";

export const releaseLease = defineOperation({
  id: "leases.release",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/release",
  summary: "Give a lease up unfinished",
  description:
    "For a runner that cannot finish (shutting down): the lease ends at once (it reads expired) and its event waits for another runner now instead of after the TTL. Nothing is recorded on the event. Fenced: a superseded holder gets 409 UZ-RUN-005.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  params: leaseIdParam,
  body: { fencing_token: fencingToken },
  output: z.object({ lease_id: z.string(), released: z.literal(true) }).meta({ id: "ReleasedLease" }),
});
