import { rmSync } from "node:fs";
import { openDatabase } from "@fleet/db";
import { serveControlSocket } from "./cli/control-socket.ts";
import { type Config, databaseLimits } from "./env.ts";
import type { StartingServer } from "./http/starting-server.ts";
import { createApp } from "./server.ts";

/**
 * Everything a start does once it listens: open and migrate the database, build the service, serve, and
 * on SIGINT/SIGTERM drain and stop (`App.shutdown`), then close the database. `main.ts` loads this module
 * only after `/healthz` answers, so the code behind it (most of the bundle) is read while the process is
 * already live (docs/decisions/operations.md, "Start-up").
 */
export async function serve(config: Config, starting: StartingServer, socket: string | null): Promise<void> {
  const database = await openDatabase(config.databaseUrl, {
    ...databaseLimits(config),
    ...(socket === null ? {} : { controlSocket: socket }),
  });
  // A database newer than this code (a rollback), or with a landed migration changed, refuses the start
  // here: /readyz never turns ready, and the process exits 1 naming the migrations.
  await database.migrate();
  const { app, log, services, shutdown } = await createApp(config, database, { server: starting });
  const control = socket === null ? null : await serveControlSocket(socket, services, log);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      // A second signal (Ctrl-C again): stop now, without waiting for the requests in flight.
      log.warn({ signal }, "stopping at once");
      if (socket !== null) rmSync(socket, { force: true });
      process.exit(1);
    }
    stopping = true;
    log.info({ signal, ...config.shutdown }, "stopping: draining");
    control?.close();
    await shutdown();
    if (socket !== null) rmSync(socket, { force: true });
    await database.close();
    log.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  await app.ready();
  starting.open();
  log.info({ url: config.publicUrl, database: database.kind }, "Fleet Control Plane API listening");
}
