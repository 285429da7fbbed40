import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { cronText, scheduleMessage, scheduleParams, scheduleView, timezoneText } from "./schedule.ts";

export const updateSchedule = defineOperation({
  id: "schedules.update",
  method: "PATCH",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/schedules/{schedule_id}",
  summary: "Change, pause or resume a schedule",
  description:
    "On a trigger schedule the change is written to its override (null clears a field back to the fleet's document), never to the recipe. A stale If-Match answers 412 UZ-SCHED-012 with the current etag; a change while another is being pushed answers 409 UZ-SCHED-006 (current_state: syncing).",
  tags: ["Schedules"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 200,
  errorStatuses: [409, 412],
  params: scheduleParams,
  requestHeaders: { if_match: z.string().max(200).optional() },
  body: {
    cron: cronText.nullable().optional(),
    message: scheduleMessage.nullable().optional(),
    timezone: timezoneText.nullable().optional(),
    status: z.enum(["active", "paused"], { error: "status must be active or paused" }).nullable().optional(),
  },
  output: scheduleView,
});
