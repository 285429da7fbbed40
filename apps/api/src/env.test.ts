import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./env.ts";

describe("configuration", () => {
  it("defaults to the embedded setup", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, consolePort: 3000, databaseUrl: "pglite://./.data/pglite" });
    expect(config.docsUrl).toBe("http://localhost:8080/docs/errors");
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ SESSION_SIGNING_KEY: "short" }, "SESSION_SIGNING_KEY"],
    [{ DOCS_URL: "not a url" }, "DOCS_URL"],
  ])("refuses %j naming %s", (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^invalid configuration: ${name} `));
  });

  it("stops the server's start with one line naming the variable", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", join(import.meta.dirname, "main.ts")], {
      env: { ...process.env, PORT: "-1" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^fleet-api: invalid configuration: PORT /);
  });
});
