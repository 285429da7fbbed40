import { router } from "../../trpc.ts";
import { acquireLease } from "./acquire-lease.ts";
import { deleteMemory } from "./delete-memory.ts";
import { getSelf } from "./get-self.ts";
import { heartbeat } from "./heartbeat.ts";
import { publishActivity } from "./publish-activity.ts";
import { releaseLease } from "./release-lease.ts";
import { renewLease } from "./renew-lease.ts";
import { reportLease } from "./report.ts";
import { writeMemory } from "./write-memory.ts";

export const runnerSelfRouter = router({
  get: getSelf,
  heartbeat,
  acquire: acquireLease,
  renew: renewLease,
  release: releaseLease,
  report: reportLease,
  activity: publishActivity,
  writeMemory,
  deleteMemory,
});
