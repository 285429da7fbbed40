import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { assignedPolicy, capabilityReport, runnerStatuses } from "./runner.ts";

export const heartbeat = defineOperation({
  id: "runners.heartbeat",
  method: "POST",
  path: "/v1/runners/me/heartbeats",
  summary: "Report liveness and capabilities",
  description:
    "Marks the runner seen, stores the capability report when one is sent, and answers the assigned policy with the degraded verdict against it: a host whose report does not satisfy the policy is degraded (no work is leased to it) until a later report does.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  body: { capability_report: capabilityReport.optional() },
  output: z
    .object({
      status: z.enum(runnerStatuses),
      assigned_policy: assignedPolicy.nullable(),
      degraded: z.boolean(),
      degraded_reason: z.string().nullable(),
    })
    .meta({ id: "HeartbeatAnswer" }),
});
