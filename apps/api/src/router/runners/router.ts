import { router } from "../../trpc.ts";
import { deleteRunner } from "./delete-runner.ts";
import { enrollRunner } from "./enroll-runner.ts";
import { getRunner } from "./get-runner.ts";
import { listRunnerEvents } from "./list-runner-events.ts";
import { listRunnerLeases } from "./list-runner-leases.ts";
import { listRunners } from "./list-runners.ts";
import { updateRunner } from "./update-runner.ts";

export const runnersRouter = router({
  enroll: enrollRunner,
  list: listRunners,
  get: getRunner,
  update: updateRunner,
  delete: deleteRunner,
  listLeases: listRunnerLeases,
  listEvents: listRunnerEvents,
});
