import { DataDirLockedError, openDatabase } from "@fleet/db";
import { ConfigError, loadConfig } from "./env.ts";
import { createApp } from "./server.ts";

/** Starts the API: migrate, listen, and stop cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl, { serveSocket: true });
  await database.migrate();
  const { app, log, close } = await createApp(config, database);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    await close();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  await app.listen({ port: config.port, host: config.host });
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
