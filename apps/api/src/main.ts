import { rmSync } from "node:fs";
import {
  controlSocketPath,
  DataDirLockedError,
  openDatabase,
  parseDatabaseUrl,
  SchemaMismatchError,
} from "@fleet/db";
import { serveControlSocket } from "./cli/control-socket.ts";
import { ConfigError, databaseLimits, loadConfig } from "./env.ts";
import { Responses } from "./http/responses.ts";
import { StartingServer } from "./http/starting-server.ts";
import { createApp } from "./server.ts";

/** A start refused for a reason the operator can fix: one line on stderr, no stack. */
class StartError extends Error {}

/**
 * Starts the API: listen first (so `/healthz` answers while the rest starts), then open and migrate the
 * database, build the service, and serve; on SIGINT/SIGTERM drain and stop (`App.shutdown`), then close
 * the database.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const target = parseDatabaseUrl(config.databaseUrl);
  const dir = target.kind === "pglite" ? target.dir : null;
  // A second start on a held embedded directory would otherwise meet the holder's port first (a read of
  // the lock file: the lock itself is taken when the database opens, after listening).
  if (dir !== null) DataDirLockedError.throwIfHeld(dir);
  const starting = new StartingServer(config.docsUrl, new Responses());
  await starting.listen(config.port, config.host).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    throw new StartError(
      `port ${config.port} on ${config.host} is already in use; stop what listens there, or set PORT to a free port`,
    );
  });
  // Owning an embedded directory, the server also answers fleetctl, which cannot open it alongside.
  const socket = dir === null ? null : controlSocketPath(dir);
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

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof StartError ||
    error instanceof SchemaMismatchError
  ) {
    console.error(`fleet-api: ${error.message}`);
  } else {
    console.error("fleet-api: failed to start:", error);
  }
  process.exit(1);
});
