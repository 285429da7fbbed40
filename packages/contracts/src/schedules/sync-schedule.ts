import { defineOperation, tenantCredentials } from "../operation.ts";
import { scheduleParams, scheduleView } from "./schedule.ts";

export const syncSchedule = defineOperation({
  id: "schedules.sync",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/schedules/{schedule_id}/sync",
  summary: "Push a schedule to the scheduler now",
  description: "Retries a failed registration at once instead of waiting for the reconciler.",
  tags: ["Schedules"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409],
  params: scheduleParams,
  output: scheduleView,
});
