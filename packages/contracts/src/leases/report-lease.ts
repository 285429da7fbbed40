import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { fencingToken } from "./lease.ts";

const meter = (field: string) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .min(0, { error: `${field} must be at least 0` })
    .optional();

export const reportLease = defineOperation({
  id: "leases.report",
  method: "POST",
  path: "/v1/runners/me/reports",
  summary: "Report a leased event's outcome",
  description:
    "Ends the lease and records the answer on the event (processed or fleet_error). Fenced: a holder the fleet has superseded gets 409 UZ-RUN-005 and nothing changes.",
  tags: ["Runner self"],
  scope: null,
  credentials: ["runner"],
  successStatus: 200,
  errorStatuses: [409],
  bodyLimit: 1024 * 1024,
  body: {
    lease_id: uuidv7("lease_id"),
    event_id: uuidv7("event_id"),
    fencing_token: fencingToken,
    outcome: z.enum(["processed", "fleet_error"], { error: "outcome must be processed or fleet_error" }),
    response_text: z
      .string()
      .max(512 * 1024)
      .optional(),
    failure_label: z.string().max(200).optional(),
    failure_detail: z.string().max(2000).optional(),
    tokens: meter("tokens"),
    wall_ms: meter("wall_ms"),
    cost_nanos: meter("cost_nanos"),
    checkpoint_id: z.string().max(200).optional(),
    provider: z.string().max(100).optional(),
    model: z.string().max(200).optional(),
    posture: z.string().max(100).optional(),
    input_tokens: meter("input_tokens"),
    output_tokens: meter("output_tokens"),
    cached_tokens: meter("cached_tokens"),
  },
  output: z
    .object({ lease_id: z.string(), event_id: z.string(), outcome: z.enum(["succeeded", "failed"]) })
    .meta({ id: "ReportAnswer" }),
});
