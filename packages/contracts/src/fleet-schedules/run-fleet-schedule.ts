import { z } from "zod";
import { fencingToken } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";
import { runnerSchedule, scheduleOfLease } from "./fleet-schedule.ts";

export const runFleetSchedule = defineOperation({
  ...runnerSchedule,
  id: "fleetSchedules.run",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/schedules/{schedule_id}/runs",
  summary: "Run one of the fleet's schedules now",
  description:
    "Stores a cron event for the schedule at once (actor cron:<schedule_id>), as a fire would; the schedule itself is unchanged.",
  successStatus: 202,
  errorStatuses: [409],
  params: scheduleOfLease,
  body: { fencing_token: fencingToken },
  output: z.object({ status: z.literal("accepted"), event_id: z.string() }).meta({ id: "ScheduleRun" }),
});
