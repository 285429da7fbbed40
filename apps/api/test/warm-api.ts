import { beforeAll } from "vitest";
import { testApi } from "./harness.ts";

// Every file's first test used to start the worker's API (and on PGlite its database) inside its own 30 s:
// on a loaded two-core machine that start took up to 50 s and failed whichever test came first. The
// worker's API starts here instead, once per worker (files share the worker's modules), under a hook's
// own limit; later files find it started.
beforeAll(async () => {
  await testApi();
}, 120_000);
