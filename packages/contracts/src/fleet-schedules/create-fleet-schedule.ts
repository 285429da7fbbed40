import { z } from "zod";
import { fencingToken, leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";
import { cronText, scheduleMessage, scheduleView, timezoneText } from "../schedules/schedule.ts";
import { runnerSchedule } from "./fleet-schedule.ts";

export const createFleetSchedule = defineOperation({
  ...runnerSchedule,
  id: "fleetSchedules.create",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/schedules",
  summary: "Create a schedule for the running fleet",
  description:
    "For the fleet the lease runs (never one named in the body), with source fleet; the fleet's declared secrets are masked out of the message. At most 16 schedules created by the fleet (409 UZ-SCHED-009) and 32 in all (409 UZ-SCHED-003), even under concurrent creates. A registration that fails still answers 201 with sync showing it. No Idempotency-Key: a repeated call creates a second schedule. A superseded holder gets 409 UZ-RUN-005.",
  successStatus: 201,
  errorStatuses: [409],
  params: leaseIdParam,
  body: {
    fencing_token: fencingToken,
    cron: cronText,
    message: scheduleMessage,
    once: z.boolean({ error: "once must be a boolean" }).default(false),
    timezone: timezoneText.nullable().optional(),
  },
  output: scheduleView,
});
