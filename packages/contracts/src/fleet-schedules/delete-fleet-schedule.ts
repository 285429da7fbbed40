import { z } from "zod";
import { defineOperation } from "../operation.ts";
import { fencingQuery, runnerSchedule, scheduleOfLease } from "./fleet-schedule.ts";

export const deleteFleetSchedule = defineOperation({
  ...runnerSchedule,
  id: "fleetSchedules.delete",
  method: "DELETE",
  path: "/v1/runners/me/leases/{lease_id}/schedules/{schedule_id}",
  summary: "Delete a schedule the fleet created",
  description: "403 UZ-SCHED-010 on a schedule whose source is not fleet.",
  successStatus: 204,
  errorStatuses: [409],
  params: scheduleOfLease,
  query: { fencing_token: fencingQuery },
  output: z.void(),
});
