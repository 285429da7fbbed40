// What a process needs before it opens the database: the target a URL names, the control socket of an
// embedded directory, and the refusals of a start. Node's built-ins only, so the API's start-up can read
// it (and listen) before it loads the drivers, drizzle and the schema (docs/decisions/operations.md).
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export { SchemaMismatchError } from "./journal.ts";
export { DataDirLockedError } from "./lock.ts";

/** Parses DATABASE_URL: `postgres://…`, `pglite://memory`, or `pglite://<dir>` (relative to the cwd). */
export function parseDatabaseUrl(
  url: string,
): { kind: "postgres"; url: string } | { kind: "pglite"; dir: string | null } {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return { kind: "postgres", url };
  if (url.startsWith("pglite://")) {
    const rest = url.slice("pglite://".length);
    if (rest === "memory" || rest === "memory://") return { kind: "pglite", dir: null };
    if (rest.length === 0) throw new Error("pglite:// needs a directory or `memory`");
    return { kind: "pglite", dir: resolve(rest) };
  }
  throw new Error("must start with postgres://, postgresql:// or pglite://");
}

/** Where the process holding an embedded directory answers operator commands; unix socket paths are
 * limited to ~100 bytes, so it lives in the temp directory, named by the data directory. */
export function controlSocketPath(dir: string): string {
  const digest = createHash("sha256").update(resolve(dir)).digest("hex").slice(0, 16);
  return join(tmpdir(), `fleet-${digest}.sock`);
}
