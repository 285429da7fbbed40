import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { assignedPolicy, runnerStatuses } from "./runner.ts";

export const getSelf = defineOperation({
  id: "runners.getSelf",
  method: "GET",
  path: "/v1/runners/me",
  summary: "Read the calling runner",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  output: z
    .object({
      runner_id: z.string(),
      host_id: z.string(),
      labels: z.array(z.string()),
      assigned_policy: assignedPolicy.nullable(),
      status: z.enum(runnerStatuses),
      degraded: z.boolean(),
      degraded_reason: z.string().nullable(),
    })
    .meta({ id: "RunnerSelf" }),
});
