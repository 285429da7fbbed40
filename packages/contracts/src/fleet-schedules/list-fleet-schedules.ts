import { z } from "zod";
import { leaseIdParam } from "../leases/lease.ts";
import { defineOperation } from "../operation.ts";
import { scheduleView } from "../schedules/schedule.ts";
import { fencingQuery, runnerSchedule } from "./fleet-schedule.ts";

export const listFleetSchedules = defineOperation({
  ...runnerSchedule,
  id: "fleetSchedules.list",
  method: "GET",
  path: "/v1/runners/me/leases/{lease_id}/schedules",
  summary: "List the running fleet's schedules",
  successStatus: 200,
  errorStatuses: [409],
  params: leaseIdParam,
  query: { fencing_token: fencingQuery },
  output: z.object({ items: z.array(scheduleView) }).meta({ id: "FleetScheduleList" }),
});
