import { z } from "zod";
import { fencingToken } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";
import { cronText, scheduleMessage, scheduleView, timezoneText } from "../schedules/schedule.ts";
import { runnerSchedule, scheduleOfLease } from "./fleet-schedule.ts";

export const updateFleetSchedule = defineOperation({
  ...runnerSchedule,
  id: "fleetSchedules.update",
  method: "PATCH",
  path: "/v1/runners/me/leases/{lease_id}/schedules/{schedule_id}",
  summary: "Change a schedule the fleet created",
  description: "403 UZ-SCHED-010 on a schedule whose source is not fleet.",
  successStatus: 200,
  errorStatuses: [409],
  params: scheduleOfLease,
  body: {
    fencing_token: fencingToken,
    cron: cronText.optional(),
    message: scheduleMessage.optional(),
    timezone: timezoneText.optional(),
    status: z.enum(["active", "paused"], { error: "status must be active or paused" }).optional(),
  },
  output: scheduleView,
});
