import { rmSync } from "node:fs";
import { controlSocketPath, DataDirLockedError, openDatabase, parseDatabaseUrl } from "@fleet/db";
import { ConfigError, loadConfig } from "./env.ts";
import { serveControlSocket } from "./http/control-socket.ts";
import { Responses } from "./http/responses.ts";
import { StartingServer } from "./http/starting-server.ts";
import { createApp } from "./server.ts";

/**
 * Starts the API: listen first (so `/healthz` answers while the rest starts), then open and migrate the
 * database, build the service, and serve; stop cleanly on SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const starting = new StartingServer(config.docsUrl, new Responses());
  await starting.listen(config.port, config.host);
  const target = parseDatabaseUrl(config.databaseUrl);
  // Owning an embedded directory, the server also answers fleetctl, which cannot open it alongside.
  const socket = target.kind === "pglite" && target.dir !== null ? controlSocketPath(target.dir) : null;
  const database = await openDatabase(config.databaseUrl, socket === null ? {} : { controlSocket: socket });
  await database.migrate();
  const { app, log, services, close } = await createApp(config, database, { server: starting });
  const control = socket === null ? null : await serveControlSocket(socket, services, log);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    control?.close();
    if (socket !== null) rmSync(socket, { force: true });
    starting.server.close();
    starting.server.closeIdleConnections();
    await close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  await app.ready();
  starting.open();
  log.info({ url: config.publicUrl, database: database.kind }, "Fleet Control Plane API listening");
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(`fleet-api: ${error.message}`);
  } else {
    console.error("fleet-api: failed to start:", error);
  }
  process.exit(1);
});
