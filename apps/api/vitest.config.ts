import { connect } from "node:net";
import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { specPath, specPresent } from "./test/spec-file.ts";

/**
 * The API suite runs twice: on embedded PGlite, and on PostgreSQL when one is reachable at
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres). Each worker starts one API
 * on its own database handle and every test makes its own tenant, so files run in parallel.
 */
const postgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 5432) });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export default defineConfig(async () => {
  const withPostgres = process.env.TEST_SKIP_POSTGRES !== "1" && (await reachable(postgresUrl));
  if (!withPostgres && process.env.CI === "true" && process.env.TEST_SKIP_POSTGRES !== "1") {
    // In CI the races, the multi-instance faults and the PostgreSQL driver must be proven, not skipped.
    throw new Error(`[api tests] PostgreSQL not reachable at ${postgresUrl}; CI runs the suite on it`);
  }
  if (!withPostgres)
    console.warn(`[api tests] PostgreSQL not reachable at ${postgresUrl}: running on PGlite only`);
  if (!specPresent)
    console.warn(
      `[api tests] no spec at ${relative(process.cwd(), specPath)}: skipping the check of its error codes`,
    );
  const shared = {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    pool: "forks" as const,
    isolate: false,
    setupFiles: ["test/warm-api.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  };
  return {
    test: {
      maxWorkers: 2,
      projects: [
        { test: { ...shared, name: "pglite", env: { TEST_DB: "pglite" } } },
        ...(withPostgres
          ? [
              {
                test: {
                  ...shared,
                  name: "postgres",
                  env: { TEST_DB: "postgres", TEST_DATABASE_URL: postgresUrl },
                  globalSetup: ["test/postgres-setup.ts"],
                },
              },
            ]
          : []),
      ],
    },
  };
});
