import {
  controlSocketPath,
  DataDirLockedError,
  parseDatabaseUrl,
  SchemaMismatchError,
} from "@fleet/db/target";
import { ConfigError, loadConfig } from "./env.ts";
import { Responses } from "./http/responses.ts";
import { StartingServer } from "./http/starting-server.ts";

/** A start refused for a reason the operator can fix: one line on stderr, no stack. */
class StartError extends Error {}

/**
 * Starts the API: listen first (so `/healthz` answers while the rest starts), then load the service's
 * code and start it (`serve.ts`). This module imports only what listening needs (the configuration, the
 * HTTP server that answers while starting, the data directory's lock check): the bundle's other modules,
 * the drivers, drizzle, the contracts' schemas and the routes, are evaluated after the port is bound.
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
  const { serve } = await import("./serve.ts");
  await serve(config, starting, socket);
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
