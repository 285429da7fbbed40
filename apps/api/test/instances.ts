import { afterAll, beforeAll } from "vitest";
import { startApi, type TestApi, testApi } from "./harness.ts";

/**
 * A second API instance beside the worker's own, on the same PostgreSQL database, for the file (or the
 * describe block) that calls this: started before its tests, closed after them. `first` is the worker's
 * instance. PostgreSQL only: on PGlite a second instance would open a database of its own.
 */
export function useSecondInstance(overrides: Record<string, string> = {}): () => {
  first: TestApi;
  second: TestApi;
} {
  let first: TestApi | null = null;
  let second: TestApi | null = null;
  beforeAll(async () => {
    first = await testApi();
    second = await startApi({ DATABASE_URL: first.config.databaseUrl, ...overrides });
  }, 60_000);
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });
  return () => {
    if (first === null || second === null) throw new Error("the instances start in a beforeAll hook");
    return { first, second };
  };
}
