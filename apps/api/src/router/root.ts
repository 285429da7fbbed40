import { router } from "../trpc.ts";
import { apiKeysRouter } from "./api-keys/router.ts";
import { authRouter } from "./auth/router.ts";
import { fleetEventsRouter } from "./fleet-events/router.ts";
import { fleetLibrariesRouter } from "./fleet-libraries/router.ts";
import { fleetsRouter } from "./fleets/router.ts";
import { memoriesRouter } from "./memories/router.ts";
import { modelsRouter } from "./models/router.ts";
import { providersRouter } from "./providers/router.ts";
import { runnerSchedulesRouter } from "./runner-schedules/router.ts";
import { runnerSelfRouter } from "./runner-self/router.ts";
import { runnersRouter } from "./runners/router.ts";
import { schedulesRouter } from "./schedules/router.ts";
import { secretsRouter } from "./secrets/router.ts";
import { usersRouter } from "./users/router.ts";
import { workspacesRouter } from "./workspaces/router.ts";

export const appRouter = router({
  apiKeys: apiKeysRouter,
  auth: authRouter,
  fleetEvents: fleetEventsRouter,
  fleetLibraries: fleetLibrariesRouter,
  fleets: fleetsRouter,
  memories: memoriesRouter,
  runnerSchedules: runnerSchedulesRouter,
  runnerSelf: runnerSelfRouter,
  runners: runnersRouter,
  models: modelsRouter,
  providers: providersRouter,
  schedules: schedulesRouter,
  secrets: secretsRouter,
  users: usersRouter,
  workspaces: workspacesRouter,
});

export type AppRouter = typeof appRouter;
