import { resource } from "../../trpc.ts";
import { createSchedule } from "./create-schedule.ts";
import { deleteSchedule } from "./delete-schedule.ts";
import { getSchedule } from "./get-schedule.ts";
import { listSchedules } from "./list-schedules.ts";
import { syncSchedule } from "./sync-schedule.ts";
import { updateSchedule } from "./update-schedule.ts";

export const schedulesRouter = resource(
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  syncSchedule,
  updateSchedule,
);
