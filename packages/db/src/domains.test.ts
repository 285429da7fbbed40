import { afterAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, domainValues, openDatabase } from "./index.ts";

const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** An admin connection to the PostgreSQL server, or null when none answers (the PGlite half still runs). */
async function postgresAdmin(): Promise<DatabaseHandle | null> {
  const admin = await openDatabase(serverUrl, { max: 1 });
  try {
    await admin.query("select 1");
    return admin;
  } catch {
    await admin.close().catch(() => {});
    return null;
  }
}

/** The hot tables' enumerated columns and the domain each must have. */
const columns = [
  ["fleets", "status", "fleet_status"],
  ["fleet_events", "event_type", "fleet_event_type"],
  ["fleet_events", "status", "fleet_event_status"],
  ["leases", "kind", "lease_kind"],
  ["leases", "status", "lease_status"],
  ["runner_events", "event_type", "runner_event_type"],
] as const;

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function migrated(engine: "pglite" | "postgres"): Promise<DatabaseHandle> {
  if (engine === "pglite") {
    const handle = await openDatabase("pglite://memory");
    cleanups.push(() => handle.close());
    await handle.migrate();
    return handle;
  }
  const admin = server!;
  const name = `fleet_domains_${process.pid}_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase(url.toString(), { max: 1 });
  cleanups.push(async () => {
    await handle.close();
    await admin.query(`drop database if exists ${name} with (force)`);
  });
  await handle.migrate();
  return handle;
}

const server = await postgresAdmin();
if (server !== null) cleanups.push(() => server.close());
const engines = ["pglite", ...(server === null ? [] : ["postgres" as const])] as const;

describe.each(engines)("enumerated columns of the lease path on %s", (engine) => {
  it("are domains holding exactly the schema's values, with no CHECK constraint left on those tables", async () => {
    const db = await migrated(engine);
    for (const [table, column, domain] of columns) {
      const [type] = await db.query<{ type: string }>(
        `select format_type(atttypid, atttypmod) as type from pg_attribute
         where attrelid = $1::regclass and attname = $2`,
        [table, column],
      );
      expect(type?.type, `${table}.${column}`).toBe(domain);
      for (const value of domainValues[domain]) {
        const [row] = await db.query<{ value: string }>(`select $1::text::${domain} as value`, [value]);
        expect(row?.value).toBe(value);
      }
      await expect(db.query(`select $1::text::${domain}`, ["bogus"])).rejects.toMatchObject({
        code: "23514",
      });
    }
    const checks = await db.query<{ conname: string }>(
      `select conname from pg_constraint
       where contype = 'c' and conrelid = any (array['fleets', 'fleet_events', 'leases', 'runner_events']::regclass[])`,
    );
    expect(checks).toEqual([]);
  });
});
