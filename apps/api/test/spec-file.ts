import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * The API specification, read from `../shared` beside the repository where the project's checkouts keep
 * it. A plain clone has no such folder: the checks that read the spec skip there, and the suite says so
 * in one line (vitest.config.ts).
 */
export const specPath = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "..",
  "shared",
  "spec",
  "fleet-control-plane-api.md",
);

export const specPresent = existsSync(specPath);
