import { resource } from "../../trpc.ts";
import { createFleetSchedule } from "./create-fleet-schedule.ts";
import { deleteFleetSchedule } from "./delete-fleet-schedule.ts";
import { listFleetSchedules } from "./list-fleet-schedules.ts";
import { runFleetSchedule } from "./run-fleet-schedule.ts";
import { updateFleetSchedule } from "./update-fleet-schedule.ts";

export const fleetSchedulesRouter = resource(
  createFleetSchedule,
  deleteFleetSchedule,
  listFleetSchedules,
  runFleetSchedule,
  updateFleetSchedule,
);
