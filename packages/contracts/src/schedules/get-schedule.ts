import { defineOperation, tenantCredentials } from "../operation.ts";
import { scheduleParams, scheduleView } from "./schedule.ts";

export const getSchedule = defineOperation({
  id: "schedules.get",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/schedules/{schedule_id}",
  summary: "Read a schedule",
  description: "Unknown schedule: 404 UZ-SCHED-002. The etag is also sent as the ETag header.",
  tags: ["Schedules"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: scheduleParams,
  output: scheduleView,
});
