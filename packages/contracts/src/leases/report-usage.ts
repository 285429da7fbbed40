import { z } from "zod";
import { nanos } from "../billing/billing.ts";
import { defineOperation } from "../operation.ts";
import { fencingToken, leaseIdParam } from "./lease.ts";

const meter = (field: string) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .min(0, { error: `${field} must be at least 0` })
    .optional();

export const reportUsage = defineOperation({
  id: "leases.reportUsage",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/usage",
  summary: "Report a run's spend so far",
  description:
    "The run's usage so far, cumulative (a retry or a late call never lowers it): cost_nanos, or token meters with the model, priced from the catalogue as a report is. Answers what is left. When the run has reached its budget (the fleet's per-run cap, or what is left of the fleet's budget this period), the usage is recorded and the answer is 409 UZ-BUDGET-001: the runner must stop and report. Renew answers the same refusal. Fenced: a superseded holder gets 409 UZ-RUN-005.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  params: leaseIdParam,
  body: {
    fencing_token: fencingToken,
    cost_nanos: nanos("cost_nanos").optional(),
    provider: z.string().max(100).optional(),
    model: z.string().max(200).optional(),
    input_tokens: meter("input_tokens"),
    output_tokens: meter("output_tokens"),
    cached_tokens: meter("cached_tokens"),
  },
  output: z
    .object({
      lease_id: z.string(),
      usage_nanos: z.number().int(),
      /** What the run may still spend before it is told to stop; null when no budget bounds it. */
      remaining_nanos: z.number().int().nullable(),
    })
    .meta({ id: "RunUsage" }),
});
