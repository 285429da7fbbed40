import { z } from "zod";
import { fleetParams } from "../fleets/fleet.ts";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { scheduleView } from "./schedule.ts";

export const listSchedules = defineOperation({
  id: "schedules.list",
  method: "GET",
  path: "/v1/workspaces/{workspace_id}/fleets/{fleet_id}/schedules",
  summary: "List a fleet's schedules",
  description: "Oldest first; a fleet holds at most 32.",
  tags: ["Schedules"],
  scope: "fleet:read",
  credentials: tenantCredentials,
  successStatus: 200,
  params: fleetParams,
  output: z.object({ items: z.array(scheduleView) }).meta({ id: "ScheduleList" }),
});
