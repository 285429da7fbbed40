import { defineConfig } from "vitest/config";

/**
 * Unit tests sit beside the code; `test/` holds the end-to-end suite, which spawns a real API on a
 * temporary PGlite directory and real runner processes, so it runs in one worker with generous timeouts.
 */
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "dev/**/*.test.ts", "test/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
