import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DatabaseHandle, migrationsFolder, openDatabase } from "@fleet/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callAt, databaseKind, startApi, type TestApi, testDatabaseUrl } from "./harness.ts";

/** The earlier release: its migrations end here (device sign-in, 2026-11-25), and its rows are seeded. */
const RELEASE = "0018_device_sign_in";
const work = mkdtempSync(join(tmpdir(), "fleet-upgrade-"));
const KEY = "agt_tupgrade0018";
const ws = "01900000-0000-7000-8000-000000000003";
const fleet = "01900000-0000-7000-8000-000000000006";

/** This code's migrations folder with the journal cut after RELEASE: what that release shipped. */
function releaseFolder(): string {
  const folder = join(work, "drizzle");
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const end = journal.entries.findIndex((entry) => entry.tag === RELEASE);
  expect(end).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, end + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

/** An empty database of the test's own: an embedded directory, or a new PostgreSQL database. */
async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (databaseKind !== "postgres") return { url: `pglite://${join(work, "db")}`, drop: async () => {} };
  const base = new URL(testDatabaseUrl());
  const name = `${base.pathname.slice(1)}_upgrade_${process.pid}`;
  const admin = new URL(base);
  admin.pathname = "/postgres";
  const server = await openDatabase(admin.toString(), { max: 1, statementTimeoutMs: 120_000 });
  await server.query(`create database ${name}`);
  base.pathname = `/${name}`;
  return {
    url: base.toString(),
    drop: async () => {
      await server.query(`drop database if exists ${name} with (force)`);
      await server.close();
    },
  };
}

/** The seed's statements, one at a time (the prepared protocol takes one statement per call). */
function seedStatements(): string[] {
  const text = readFileSync(
    join(import.meta.dirname, "fixtures", "upgrade", `release-${RELEASE.slice(0, 4)}.sql`),
    "utf8",
  );
  return text
    .split("\n")
    .filter((line) => !line.startsWith("--"))
    .join("\n")
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

async function emptyTables(handle: DatabaseHandle): Promise<string[]> {
  const tables = await handle.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const empty: string[] = [];
  for (const { name } of tables) {
    const [row] = await handle.query<{ n: number }>(`select count(*)::int as n from "${name}"`);
    if (row!.n === 0) empty.push(name);
  }
  return empty;
}

describe(`a database made by release ${RELEASE}, upgraded by this code`, () => {
  let api: TestApi;
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const database = await emptyDatabase();
    drop = database.drop;
    const handle = await openDatabase(database.url, { max: 1 });
    try {
      await handle.migrate({ folder: releaseFolder() });
      for (const statement of seedStatements()) await handle.query(statement);
      // The seed keeps up with the release: a row in every table it had.
      expect(await emptyTables(handle)).toEqual([]);
      await handle.migrate(); // this code's migrations, over the release's data
    } finally {
      await handle.close();
    }
    api = await startApi({ DATABASE_URL: database.url });
  }, 120_000);

  afterAll(async () => {
    await api?.app.close();
    await api?.database.close();
    await drop();
    rmSync(work, { recursive: true, force: true });
  });

  const get = (path: string) => callAt<Record<string, unknown>>(api.baseUrl, "GET", path, { token: KEY });
  const items = async (path: string) => {
    const response = await get(path);
    expect(response.status, `${path}: ${response.text}`).toBe(200);
    return response.body.items as Record<string, unknown>[];
  };

  it("serves the release's tenant, workspace, fleet, event and memories through /v1 with its API key", async () => {
    expect(await items("/v1/tenants/me/workspaces")).toEqual([
      expect.objectContaining({ id: ws, name: "main" }),
    ]);
    expect(await items(`/v1/workspaces/${ws}/fleets`)).toEqual([
      expect.objectContaining({ id: fleet, name: "echo" }),
    ]);
    const event = await get(
      `/v1/workspaces/${ws}/fleets/${fleet}/events/01900000-0000-7000-8000-000000000007`,
    );
    expect(event.status, event.text).toBe(200);
    expect(event.text).toContain("hello from 0018");
    expect(await items(`/v1/workspaces/${ws}/fleets/${fleet}/memories`)).toEqual([
      expect.objectContaining({ key: "greeting" }),
    ]);
  });

  it("keeps the release's one webhook secret as the notice secret, and asks for a new incoming one (0026)", async () => {
    const notice = await get(`/v1/workspaces/${ws}/notice-secret`);
    expect(notice.status, notice.text).toBe(200);
    expect(notice.body).toEqual({ configured: true, created_at: 1795500000000 });
    const incoming = await get(`/v1/workspaces/${ws}/webhook-secret`);
    expect(incoming.status, incoming.text).toBe(200);
    expect(incoming.body).toMatchObject({ configured: false });
  });

  it("serves its schedules, gates, grants, secrets, keys, models and audit", async () => {
    const listed = async (path: string, ...values: string[]) => {
      const response = await get(path);
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      for (const value of values) expect(response.text, path).toContain(value);
    };
    await listed(
      `/v1/workspaces/${ws}/fleets/${fleet}/schedules`,
      "01900000-0000-7000-8000-000000000013",
      "0 9 * * *",
    );
    await listed(`/v1/workspaces/${ws}/approvals`, "01900000-0000-7000-8000-00000000000c", "rm -rf /tmp/x");
    await listed(
      `/v1/workspaces/${ws}/fleets/${fleet}/integration-grants`,
      "01900000-0000-7000-8000-00000000000e",
    );
    await listed(`/v1/workspaces/${ws}/secrets`, "GITHUB_TOKEN");
    await listed("/v1/api-keys", "01900000-0000-7000-8000-000000000004");
    await listed("/v1/models", "claude-upgrade-0018");
    await listed("/v1/tenants/me/audit", "req-0018");
  });
});
