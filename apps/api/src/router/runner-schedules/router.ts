import { router } from "../../trpc.ts";
import { createFleetSchedule } from "./create-fleet-schedule.ts";
import { deleteFleetSchedule } from "./delete-fleet-schedule.ts";
import { listFleetSchedules } from "./list-fleet-schedules.ts";
import { runFleetSchedule } from "./run-fleet-schedule.ts";
import { updateFleetSchedule } from "./update-fleet-schedule.ts";

export const runnerSchedulesRouter = router({
  create: createFleetSchedule,
  list: listFleetSchedules,
  update: updateFleetSchedule,
  delete: deleteFleetSchedule,
  run: runFleetSchedule,
});
