import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { scheduleParams } from "./schedule.ts";

export const deleteSchedule = defineOperation({
  id: "schedules.delete",
  method: "DELETE",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/schedules/{schedule_id}",
  summary: "Delete a schedule",
  description:
    "Removed from the scheduler, then from the store. If the scheduler cannot confirm at once, the schedule stays readable with status deleting until the reconciler finishes; it never fires meanwhile.",
  tags: ["Schedules"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 204,
  errorStatuses: [409],
  params: scheduleParams,
  output: z.void(),
});
