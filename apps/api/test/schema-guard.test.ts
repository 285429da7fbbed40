import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS_TABLE, openDatabase, SchemaMismatchError } from "@fleet/db";
import { freePort } from "@fleet/testing/free-port";
import { afterAll, describe, expect, it } from "vitest";
import { databaseKind, isolatedDatabase } from "./harness.ts";

const apiDir = join(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "fleet-schema-guard-"));
const drops: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;

/** A database of the test's own, migrated by this code: an embedded directory, or a PostgreSQL database. */
async function migratedDatabase(): Promise<string> {
  if (databaseKind === "postgres") {
    const { url, drop } = await isolatedDatabase();
    drops.push(drop);
    return url;
  }
  const url = `pglite://${join(dir, `db-${++counter}`)}`;
  const handle = await openDatabase(url);
  await handle.migrate();
  await handle.close();
  return url;
}

/** Runs raw SQL on the database at `url` (the way a migrator of another release would write it). */
async function onDatabase(url: string, text: string, params: unknown[] = []) {
  const handle = await openDatabase(url, { max: 1 });
  try {
    return await handle.query(text, params);
  } finally {
    await handle.close();
  }
}

/** `pnpm start:api` on `url`: whether /readyz ever answered 200, its exit code and its stderr. */
async function startOn(url: string) {
  const port = await freePort();
  const server = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: apiDir,
    env: { ...process.env, DATABASE_URL: url, PORT: String(port), LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stderr: string[] = [];
  server.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
  let ready = false;
  const deadline = Date.now() + 60_000;
  while (server.exitCode === null && Date.now() < deadline) {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    if (response?.ok) ready = true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (server.exitCode === null) server.kill("SIGKILL");
  return { ready, code: await exited, stderr: stderr.join("") };
}

describe("a database whose schema is newer than this code", () => {
  it("refuses the start naming the migrations it does not know; /readyz never turns ready", async () => {
    const url = await migratedDatabase();
    const [newest] = await onDatabase(
      url,
      `select max(created_at)::text as created_at, count(*)::int as n from ${MIGRATIONS_TABLE}`,
    );
    const later = Number(newest!.created_at) + 60_000;
    // As a newer release's migrator records its migrations: drizzle's row, and the tag beside it.
    await onDatabase(url, `insert into ${MIGRATIONS_TABLE} (hash, created_at, tag) values ($1, $2, $3)`, [
      "f".repeat(64),
      later,
      "0099_from_the_future",
    ]);
    await onDatabase(url, `insert into ${MIGRATIONS_TABLE} (hash, created_at) values ($1, $2)`, [
      "e".repeat(64),
      later + 1,
    ]);

    const started = await startOn(url);
    expect(started.ready).toBe(false);
    expect(started.code).toBe(1);
    const message = started.stderr.trim();
    expect(message.split("\n")).toHaveLength(1); // one line: no stack trace
    expect(message).toContain("fleet-api: the database has 2 migration(s) this code does not know");
    expect(message).toContain("0099_from_the_future");
    expect(message).toContain(`an unnamed migration of ${new Date(later + 1).toISOString()}`);
    expect(message).toContain("migrated by a newer release");
    // Nothing was applied or recorded by the refused start.
    const rows = await onDatabase(url, `select count(*)::int as n from ${MIGRATIONS_TABLE}`);
    expect(rows[0]!.n).toBe(Number(newest!.n) + 2);
  }, 120_000);

  it("starts on a database this code migrated, and records each migration's tag", async () => {
    const url = await migratedDatabase();
    const handle = await openDatabase(url, { max: 1 });
    try {
      await handle.migrate(); // a second start finds nothing to apply and nothing to refuse
      const rows = await handle.query<{ tag: string | null }>(
        `select tag from ${MIGRATIONS_TABLE} order by created_at`,
      );
      expect(rows[0]!.tag).toBe("0000_init");
      expect(rows.every((row) => row.tag !== null)).toBe(true);
    } finally {
      await handle.close();
    }
  }, 120_000);
});

/** What a start on `url` answers: migrate() is the first thing it runs on the database. */
async function migrateOn(url: string): Promise<unknown> {
  const handle = await openDatabase(url, { max: 1 });
  try {
    await handle.migrate();
    return null;
  } catch (error) {
    return error;
  } finally {
    await handle.close();
  }
}

describe("a database whose landed migrations differ from this code's", () => {
  it("refuses a migration whose SQL changed after it was applied, naming it", async () => {
    const url = await migratedDatabase();
    await onDatabase(url, `update ${MIGRATIONS_TABLE} set hash = $1 where tag = '0012_integration_grants'`, [
      "0".repeat(64),
    ]);
    const error = await migrateOn(url);
    expect(error).toBeInstanceOf(SchemaMismatchError);
    expect((error as Error).message).toContain("changed after they were applied to this database");
    expect((error as Error).message).toContain("0012_integration_grants (applied sha256 000000000000…");
  }, 120_000);

  it("refuses a migration not applied that sorts before one that is (a migration moved in the journal)", async () => {
    const url = await migratedDatabase();
    // As on a database built on a branch where 0005 came after what is now 0006…: drizzle would skip it.
    await onDatabase(url, `delete from ${MIGRATIONS_TABLE} where tag = '0005_waiting_work'`);
    const error = await migrateOn(url);
    expect(error).toBeInstanceOf(SchemaMismatchError);
    expect((error as Error).message).toMatch(/0005_waiting_work are not applied but sort before \d{4}_/);
  }, 120_000);
});
