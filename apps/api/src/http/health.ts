import { Problem } from "@fleet/contracts";
import type { DatabaseHandle } from "@fleet/db";
import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { ScheduleEngine } from "../runtime/schedule-engine.ts";
import type { DrainState } from "./shutdown.ts";
import { HEALTHY } from "./starting-server.ts";

/** What readiness reads: the drain, the database and the scheduler (none in a process that runs none). */
export interface Readiness {
  drain: DrainState;
  database: DatabaseHandle;
  scheduler: ScheduleEngine | null;
  log: Logger;
}

/**
 * `/healthz`, the process is up (liveness); `/readyz`, it serves: not draining, the database answers and
 * the scheduler is reachable, else 503 `UZ-INTERNAL-002` saying which.
 */
export function registerHealth(app: FastifyInstance, { drain, database, scheduler, log }: Readiness): void {
  app.get("/healthz", async () => HEALTHY);
  app.get("/readyz", async () => {
    if (drain.draining) throw new Problem("UZ-INTERNAL-002", { detail: "The instance is shutting down." });
    try {
      await database.query("select 1");
    } catch (error) {
      log.error({ err: error }, "readiness check failed");
      throw new Problem("UZ-INTERNAL-002", { detail: "The database is unreachable." });
    }
    if (scheduler !== null && !scheduler.available) {
      throw new Problem("UZ-INTERNAL-002", { detail: "The scheduler is unreachable." });
    }
    return { status: "ready", database: "ok", scheduler: "ok" };
  });
}
