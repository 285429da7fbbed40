import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { lease } from "./lease.ts";

/** The longest a runner may ask the service to hold an acquire open. */
export const MAX_WAIT_MS = 30_000;

export const acquireLease = defineOperation({
  id: "leases.acquire",
  method: "POST",
  path: "/v1/runners/me/leases",
  summary: "Lease the next piece of work",
  description:
    "Leases the oldest waiting event of a fleet whose required labels are all among the runner's, with a fencing token one above the fleet's last. With wait_ms the request stays open until work arrives or the wait ends (at most 30 s), answering lease: null then. A degraded runner is refused with 409 UZ-EXEC-017 naming the missing mechanism; a cordoned, draining or drained runner gets lease: null.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  body: {
    wait_ms: z
      .number({ error: "wait_ms must be an integer" })
      .int({ error: "wait_ms must be an integer" })
      .min(0, { error: "wait_ms must be at least 0" })
      .transform((ms) => Math.min(ms, MAX_WAIT_MS))
      .default(0),
  },
  output: z
    .object({ lease: lease.nullable(), retry_after_ms: z.number().int() })
    .meta({ id: "AcquireAnswer" }),
});
