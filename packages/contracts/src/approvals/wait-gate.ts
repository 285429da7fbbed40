import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { MAX_WAIT_MS } from "../leases/acquire-lease.ts";
import { leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";
import { runnerGate } from "./approval-gate.ts";

export const waitGate = defineOperation({
  id: "approvals.wait",
  method: "GET",
  path: "/v1/runners/me/leases/{lease_id}/gates/{gate_id}",
  summary: "Read, or wait for, a gate's answer",
  description:
    "The gate as its runner reads it. With wait_ms the request stays open while the gate is pending, until it is answered on any instance or the wait ends (at most 30 s). Anything but approved is a refusal; failure_label is what the fleet event's report carries then.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  params: { ...leaseIdParam, gate_id: uuidv7("gate_id") },
  query: {
    wait_ms: z
      .preprocess(
        (value) => (typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value),
        z
          .number({ error: "wait_ms must be an integer" })
          .int({ error: "wait_ms must be an integer" })
          .min(0, { error: "wait_ms must be at least 0" }),
      )
      .transform((ms) => Math.min(ms, MAX_WAIT_MS))
      .default(0),
  },
  output: runnerGate,
});
