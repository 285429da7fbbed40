import { z } from "zod";
import { uuidv7 } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { fencingToken, leaseIdParam } from "../runner-self/lease.ts";
import { cronText, scheduleMessage, scheduleView, timezoneText } from "./schedule.ts";

const runnerSchedule = {
  scope: null,
  credentials: ["runner"] as const,
  tags: ["Runner self"],
};
const scheduleOfLease = { ...leaseIdParam, schedule_id: uuidv7("schedule_id") };
const fencingQuery = z.preprocess(
  (value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
  fencingToken,
);

export const createFleetSchedule = defineOperation({
  ...runnerSchedule,
  id: "runnerSchedules.create",
  method: "POST",
  path: "/v1/runners/me/leases/{lease_id}/schedules",
  summary: "Create a schedule for the running fleet",
  description:
    "For the fleet the lease runs (never one named in the body), with source fleet; the fleet's declared secrets are masked out of the message. At most 16 schedules created by the fleet (409 UZ-SCHED-009) and 32 in all (409 UZ-SCHED-003), even under concurrent creates. A registration that fails still answers 201 with sync showing it. No Idempotency-Key: a repeated call creates a second schedule. A superseded holder gets 409 UZ-RUN-005.",
  successStatus: 201,
  errorStatuses: [409],
  params: leaseIdParam,
  body: {
    fencing_token: fencingToken,
    cron: cronText,
    message: scheduleMessage,
    once: z.boolean({ error: "once must be a boolean" }).default(false),
    timezone: timezoneText.nullable().optional(),
  },
  output: scheduleView,
});

export const listFleetSchedules = defineOperation({
  ...runnerSchedule,
  id: "runnerSchedules.list",
  method: "GET",
  path: "/v1/runners/me/leases/{lease_id}/schedules",
  summary: "List the running fleet's schedules",
  successStatus: 200,
  errorStatuses: [409],
  params: leaseIdParam,
  query: { fencing_token: fencingQuery },
  output: z.object({ items: z.array(scheduleView) }).meta({ id: "FleetScheduleList" }),
});

export const updateFleetSchedule = defineOperation({
  ...runnerSchedule,
  id: "runnerSchedules.update",
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

export const deleteFleetSchedule = defineOperation({
  ...runnerSchedule,
  id: "runnerSchedules.delete",
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

export const runFleetSchedule = defineOperation({
  ...runnerSchedule,
  id: "runnerSchedules.run",
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
