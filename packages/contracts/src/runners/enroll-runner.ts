import { z } from "zod";
import { epochMs } from "../common.ts";
import { runnerLabel } from "../fleet-libraries/library.ts";
import { defineOperation } from "../operation.ts";
import { assignedPolicy, assignedPolicyInput } from "./runner.ts";

export const enrollRunner = defineOperation({
  id: "runners.enroll",
  method: "POST",
  path: "/v1/runners",
  summary: "Enrol a runner",
  description:
    "Registers an execution host and answers its runner token once (agt_r…, only its SHA-256 is kept). sandbox_tier belongs inside assigned_policy; at the top level it is refused. dev_none is assignable only when the service runs in dev mode.",
  tags: ["Runners"],
  scope: "runner:write",
  credentials: ["operator"],
  successStatus: 201,
  headers: { "cache-control": "no-store" },
  body: {
    host_id: z.string().min(1).max(253, { error: "host_id must be at most 253 characters" }),
    assigned_policy: assignedPolicyInput,
    labels: z.array(runnerLabel).max(32, { error: "at most 32 labels" }).default([]),
  },
  output: z
    .object({
      runner_id: z.string(),
      runner_token: z.string(),
      host_id: z.string(),
      labels: z.array(z.string()),
      assigned_policy: assignedPolicy,
      created_at: epochMs,
    })
    .meta({ id: "EnrolledRunner" }),
});
