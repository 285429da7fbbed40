import { resource } from "../../trpc.ts";
import { deleteRunner } from "./delete-runner.ts";
import { enrollRunner } from "./enroll-runner.ts";
import { getRunner } from "./get-runner.ts";
import { getSelf } from "./get-self.ts";
import { heartbeat } from "./heartbeat.ts";
import { listLeaseFrames } from "./list-lease-frames.ts";
import { listRunnerEvents } from "./list-runner-events.ts";
import { listRunnerLeases } from "./list-runner-leases.ts";
import { listRunners } from "./list-runners.ts";
import { updateRunner } from "./update-runner.ts";

export const runnersRouter = resource(
  deleteRunner,
  enrollRunner,
  getRunner,
  getSelf,
  heartbeat,
  listLeaseFrames,
  listRunnerEvents,
  listRunnerLeases,
  listRunners,
  updateRunner,
);
