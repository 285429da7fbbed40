import { z } from "zod";
import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { cronText, scheduleMessage, scheduleView, timezoneText } from "./schedule.ts";

export const createSchedule = defineOperation({
  id: "schedules.create",
  method: "POST",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/schedules",
  summary: "Schedule a fleet",
  description:
    "Stored first, then registered with the scheduler within a short deadline: a registration that fails still answers 201, with sync: failed and last_error, and the reconciler converges it. Bad cron or timezone: 400 UZ-SCHED-001. A fleet holds at most 32 schedules (409 UZ-SCHED-003).",
  tags: ["Schedules"],
  scope: "fleet:write",
  credentials: tenantCredentials,
  successStatus: 201,
  errorStatuses: [409],
  params: fleetParams,
  body: {
    cron: cronText,
    message: scheduleMessage,
    timezone: timezoneText.nullable().optional(),
    once: z.boolean({ error: "once must be a boolean" }).default(false),
  },
  output: scheduleView,
});
