import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = join(import.meta.dirname, "..");
const work = mkdtempSync(join(tmpdir(), "fleet-migrations-"));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the committed migrations", () => {
  it("are what drizzle-kit generates from the schema: a schema change without its migration fails here", {
    timeout: 120_000,
  }, async () => {
    // drizzle-kit generate against a copy, so the check never writes into the repository.
    const out = join(work, "drizzle");
    cpSync(join(packageDir, "drizzle"), out, { recursive: true });
    const before = readdirSync(out).sort();
    const config = join(work, "drizzle.config.mjs");
    writeFileSync(
      config,
      `export default ${JSON.stringify({
        dialect: "postgresql",
        // drizzle-kit reads both paths relative to the working directory, whatever they look like.
        schema: relative(work, join(packageDir, "src", "schema", "index.ts")),
        out: "./drizzle",
      })};\n`,
    );
    const { stdout } = await run(
      process.execPath,
      [join(packageDir, "node_modules", "drizzle-kit", "bin.cjs"), "generate", `--config=${config}`],
      { cwd: work },
    );
    expect(stdout).toContain("No schema changes");
    expect(readdirSync(out).sort()).toEqual(before);
  });
});
