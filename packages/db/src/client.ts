import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { Admission } from "./admission.ts";
import { migrateChecked } from "./journal.ts";
import { acquireLock } from "./lock.ts";
import { readOnly, retryLost } from "./retry.ts";
import * as schema from "./schema/index.ts";
import { parseDatabaseUrl } from "./target.ts";

export { controlSocketPath, parseDatabaseUrl } from "./target.ts";

export type Schema = typeof schema;
/** The drizzle handle, the same type over either driver. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; services take `Database | Tx` where either works. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseKind = "postgres" | "pglite";

export interface DatabaseHandle {
  kind: DatabaseKind;
  /** The embedded database's directory when this process owns one on disk; null otherwise. */
  dataDir: string | null;
  db: Database;
  /** Runs raw SQL and returns its rows, whatever the driver. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Subscribes to a PostgreSQL notification channel. `onReady` runs on every (re)subscription; `onLost`
   * runs as soon as the listening connection closes, because notifications sent from then until the next
   * `onReady` are never delivered. PGlite runs in process and never loses it.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onReady?: () => void,
    onLost?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * What an embedded scheduler needs to share this database: the PGlite instance itself (it admits one
   * session, so the scheduler runs in it), or the PostgreSQL URL (the scheduler keeps its own pool).
   */
  shared: { kind: "pglite"; pglite: PGlite } | { kind: "postgres"; url: string };
  /**
   * The pool as a metrics scrape reports it: its size, and on PostgreSQL the calls (queries or whole
   * transactions) holding a connection and those waiting for one. PGlite is one connection in process
   * and says nothing of its queue.
   */
  poolUse(): { size: number; active: number | null; waiting: number | null };
  /**
   * Applies the committed migrations (serialised across processes on PostgreSQL), after checking what the
   * database has applied against them: a schema newer than this code, or a landed migration changed or
   * moved, throws SchemaMismatchError and nothing is applied.
   */
  migrate(options?: MigrateOptions): Promise<void>;
  close(): Promise<void>;
}

export interface MigrateOptions {
  /** Another migrations folder (an earlier release's journal, for upgrade tests); default: this code's. */
  folder?: string;
}

export interface OpenOptions {
  /** Pool size on PostgreSQL. */
  max?: number;
  /**
   * For the server holding an embedded directory: the unix socket it answers operator commands on,
   * recorded in the lock so `fleetctl` can reach it instead of opening the directory a second time.
   */
  controlSocket?: string;
  /** PostgreSQL: how long opening a connection, or waiting for a free one, may take (ms). */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL: the longest a statement runs and a transaction sits idle before the server ends it (its
   * `statement_timeout` and `idle_in_transaction_session_timeout`, ms).
   */
  statementTimeoutMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;

/** The committed migrations (drizzle-kit's folder: SQL files and meta/_journal.json). */
export const migrationsFolder = join(
  dirname(createRequire(import.meta.url).resolve("@fleet/db/package.json")),
  "drizzle",
);
const MIGRATION_LOCK = 7_311_045_022;

/** The rows of a raw `db.execute`, whatever the driver (postgres.js answers an array, PGlite `{rows}`). */
export function resultRows<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * A jsonb column of a raw `db.execute`'s row, whatever the driver: postgres.js (through drizzle) hands it
 * over as text, PGlite already parsed. For objects, arrays and null only: a jsonb string reaches it from
 * PGlite already unquoted, and would be parsed a second time.
 */
export function jsonbValue<T>(value: T | string): T {
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<DatabaseHandle> {
  const target = parseDatabaseUrl(url);
  if (target.kind === "postgres") {
    return openPostgres(target.url, {
      max: options.max ?? 10,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    });
  }
  return openPglite(target.dir, options.controlSocket ?? null);
}

type Client = postgres.Sql | postgres.TransactionSql;

/**
 * drizzle sends every query it was not told to name as an unnamed statement, and for those postgres.js
 * asks the server to describe the statement before it binds it: two round trips per query, and a parse and
 * plan on the server every time (the backend sat in ClientRead between the two; lease cycles ran 1.9×
 * faster once prepared). This client makes postgres.js prepare every query that has parameters: one round
 * trip, parsed once per connection, its statements keyed by their text. Transactions and savepoints hand
 * drizzle the same kind of client.
 *
 * On the pool (not inside a transaction, which already holds its connection), every query and every
 * transaction passes `admission` first: see Admission.
 */
function preparing<T extends Client>(sql: T, admission: Admission | null): T {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, params?: never[], options?: postgres.UnsafeQueryOptions) => {
          const send = () => target.unsafe(query, params, { ...options, prepare: true });
          // A read that met a connection lost in an outage runs again on another (retry.ts).
          return admission === null
            ? send()
            : admitted(admission, send, readOnly(query) ? admission.use.size : 0);
        };
      }
      if (property === "begin" || property === "savepoint") {
        return (...args: unknown[]) => {
          const body = args.pop() as (tx: postgres.TransactionSql) => unknown;
          const open = Reflect.get(target, property, target) as (...args: unknown[]) => unknown;
          let began = false;
          const run = () => {
            began = false;
            return open.call(target, ...args, (tx: postgres.TransactionSql) => {
              began = true;
              return body(preparing(tx, null));
            }) as PromiseLike<unknown>;
          };
          if (admission === null || property === "savepoint") return run();
          // A transaction whose `begin` met a connection lost in an outage never ran its body: run it
          // again on another connection (retry.ts). Once the body ran, a lost connection is the caller's.
          return retryLost(
            () => admission.run(run),
            admission.use.size,
            () => !began,
          );
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/**
 * A query that waits for admission before postgres.js sees it. It keeps the two things drizzle uses of
 * a postgres.js query: `.values()` (rows as arrays) and being awaited, which is when it is sent.
 */
function admitted(
  admission: Admission,
  send: () => { values(): PromiseLike<unknown> } & PromiseLike<unknown>,
  retries: number,
) {
  let arrays = false;
  let running: Promise<unknown> | null = null;
  const run = () =>
    (running ??= retryLost(
      () =>
        admission.run(() => {
          const query = send();
          return arrays ? query.values() : query;
        }),
      retries,
    ));
  const pending = {
    values() {
      arrays = true;
      return pending;
    },
    // biome-ignore lint/suspicious/noThenProperty: awaited in place of postgres.js's own lazy query.
    then(resolve?: (value: unknown) => unknown, reject?: (reason: unknown) => unknown) {
      return run().then(resolve, reject);
    },
    catch(reject?: (reason: unknown) => unknown) {
      return run().catch(reject);
    },
  };
  return pending;
}

/**
 * Seconds before postgres.js tries a closed connection again. Its default grows to 20 s as failures
 * mount during an outage and applies to the first attempt after it: once the database was back, a pooled
 * connection that had closed during the outage waited out its delay, and requests on it hung for 10 s.
 * A quarter of a second at most keeps a down server from being hammered without holding anyone up.
 */
const reconnectDelay = (retries: number) => Math.min(0.02 * 2 ** retries, 0.25);

interface Subscriber {
  onMessage: (payload: string) => void;
  onReady?: () => void;
  onLost?: () => void;
}

/**
 * LISTEN on a connection of its own rather than through postgres.js's `sql.listen`: that one subscribes
 * again after its connection drops but tells no one it dropped, and whoever keeps a cache fresh by
 * notifications must stop trusting it the moment one can be missed. This client's `onclose` fires when its
 * one socket closes (not at the next query), so subscribers hear `onLost` then, and `onReady` once LISTEN ran
 * on a new connection; postgres.js queues that LISTEN and retries the connection with its backoff.
 */
/** How often the LISTEN connection is asked whether it still answers, and how long it has to. */
const PROBE_EVERY_MS = 10_000;
const PROBE_TIMEOUT_MS = 5_000;

function notifications(url: string, connectTimeoutMs: number) {
  const channels = new Map<string, Set<Subscriber>>();
  const relistening = new Set<string>();
  let ending = false;
  const command = (verb: "listen" | "unlisten", channel: string) =>
    client.unsafe(`${verb} "${channel.replace(/"/g, '""')}"`);
  // postgres.js reads `onnotify` (its own `sql.listen` is built on it) but leaves it out of its types.
  const options: postgres.Options<Record<string, never>> & {
    onnotify: (channel: string, payload: string) => void;
  } = {
    max: 1,
    connect_timeout: connectTimeoutMs / 1000,
    backoff: reconnectDelay,
    // Recycling the connection would read as a loss to every subscriber.
    max_lifetime: null,
    fetch_types: false,
    onnotice: () => {},
    onnotify: (channel, payload) => {
      for (const subscriber of channels.get(channel) ?? []) subscriber.onMessage(payload);
    },
    onclose: () => {
      if (ending) return;
      silent = false; // a loss told below; onReady follows the new LISTEN
      for (const [channel, subscribers] of channels) {
        for (const subscriber of subscribers) subscriber.onLost?.();
        // One LISTEN waiting per channel: closes while it waits (a server that accepts and drops) must
        // not queue more, each of which would run, and call onReady, once the database is back.
        if (relistening.has(channel)) continue;
        relistening.add(channel);
        command("listen", channel)
          .then(
            () => {
              for (const subscriber of channels.get(channel) ?? []) subscriber.onReady?.();
            },
            // A failed attempt closes the connection again, and this runs again.
            () => {},
          )
          .finally(() => relistening.delete(channel));
      }
    },
  };
  const client = postgres(url, options);
  const everyone = () => [...channels.values()].flatMap((subscribers) => [...subscribers]);
  // A connection that goes silent without closing (a partition: no FIN, no RST) closes only when TCP
  // keepalive gives up, minutes on. A probe unanswered within PROBE_TIMEOUT_MS counts as a loss until
  // it is answered: then nothing was lost (the connection held), and subscribers hear onReady again.
  let probing = false;
  let silent = false;
  const probe = setInterval(() => {
    if (probing || ending || channels.size === 0) return;
    probing = true;
    const overdue = setTimeout(() => {
      if (!probing || silent || ending) return;
      silent = true;
      for (const subscriber of everyone()) subscriber.onLost?.();
    }, PROBE_TIMEOUT_MS);
    const settle = (answered: boolean) => {
      probing = false;
      clearTimeout(overdue);
      if (!answered || !silent) return;
      silent = false;
      for (const subscriber of everyone()) subscriber.onReady?.();
    };
    client`select 1`.then(
      () => settle(true),
      () => settle(false), // the connection closed: onclose has told everyone, and subscribes again
    );
  }, PROBE_EVERY_MS);
  probe.unref();
  return {
    async listen(channel: string, subscriber: Subscriber): Promise<() => Promise<void>> {
      // Registered only once LISTEN succeeded: a subscription that never began is not retried.
      if (!channels.has(channel)) await command("listen", channel);
      const subscribers = channels.get(channel) ?? new Set();
      channels.set(channel, subscribers);
      subscribers.add(subscriber);
      subscriber.onReady?.();
      return async () => {
        subscribers.delete(subscriber);
        if (subscribers.size > 0 || channels.get(channel) !== subscribers) return;
        channels.delete(channel);
        // Not awaited: with the database out of reach the command waits for a reconnect that may never
        // come, and a shutdown waiting on it hung. Notifications for a channel no longer in the map are
        // dropped on arrival anyway, and closing the handle ends the connection and its LISTENs.
        command("unlisten", channel).catch(() => {});
      };
    },
    async end() {
      ending = true;
      clearInterval(probe);
      await client.end({ timeout: 5 });
    },
  };
}

interface PostgresLimits {
  max: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

function openPostgres(
  url: string,
  { max, connectTimeoutMs, statementTimeoutMs }: PostgresLimits,
): DatabaseHandle {
  const base = { onnotice: () => {}, connect_timeout: connectTimeoutMs / 1000, backoff: reconnectDelay };
  const options = {
    ...base,
    max,
    // Set by the server at connect: a statement, or a transaction left idle, that outlives them is ended
    // there, so nothing a request started keeps running (or commits) long after it was answered.
    connection: {
      statement_timeout: statementTimeoutMs,
      idle_in_transaction_session_timeout: statementTimeoutMs,
      // No JIT compilation: it pays off for long analytic queries, and these statements take a few ms.
      // A plan whose estimate crosses `jit_above_cost` (a claim over a large deliveries table does) had
      // its expressions compiled on every execution: about 40 ms here, for 3 ms of work.
      jit: "off",
    },
  };
  const admission = new Admission(max, connectTimeoutMs);
  const sql = preparing(postgres(url, options), admission);
  const listener = notifications(url, connectTimeoutMs);
  const db = drizzlePostgres(sql, { schema }) as unknown as Database;
  return {
    kind: "postgres",
    dataDir: null,
    db,
    shared: { kind: "postgres", url },
    async query<T>(text: string, params: unknown[] = []) {
      return (await sql.unsafe(text, params as never[])) as unknown as T[];
    },
    listen(channel, onMessage, onReady, onLost) {
      return listener.listen(channel, { onMessage, onReady, onLost });
    },
    poolUse: () => admission.use,
    async migrate({ folder = migrationsFolder }: MigrateOptions = {}) {
      // One connection holds the advisory lock for the whole run, so concurrent starts migrate once.
      // Without the statement timeout: a migration, or waiting for another instance's, may take longer.
      const single = postgres(url, { ...base, max: 1 });
      try {
        await single`select pg_advisory_lock(${MIGRATION_LOCK})`;
        const query = (text: string, params: unknown[] = []) =>
          single.unsafe(text, params as never[]) as unknown as Promise<Record<string, unknown>[]>;
        await migrateChecked(query, folder, () =>
          migratePostgres(drizzlePostgres(single), { migrationsFolder: folder }),
        );
        await single`select pg_advisory_unlock(${MIGRATION_LOCK})`;
      } finally {
        await single.end();
      }
    },
    async close() {
      await Promise.all([sql.end({ timeout: 5 }), listener.end()]);
    },
  };
}

async function openPglite(dir: string | null, controlSocket: string | null): Promise<DatabaseHandle> {
  let release = () => {};
  if (dir !== null) {
    mkdirSync(dir, { recursive: true });
    release = acquireLock(dir, controlSocket);
  }
  let client: PGlite;
  try {
    client = await PGlite.create(dir === null ? "memory://" : join(dir, "pgdata"));
  } catch (error) {
    release();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    kind: "pglite",
    dataDir: dir,
    db,
    shared: { kind: "pglite", pglite: client },
    async query<T>(text: string, params: unknown[] = []) {
      return (await client.query<T>(text, params)).rows;
    },
    async listen(channel, onMessage, onReady) {
      const unlisten = await client.listen(channel, onMessage);
      onReady?.();
      return unlisten;
    },
    poolUse: () => ({ size: 1, active: null, waiting: null }),
    async migrate({ folder = migrationsFolder }: MigrateOptions = {}) {
      const query = async (text: string, params: unknown[] = []) =>
        (await client.query<Record<string, unknown>>(text, params)).rows;
      await migrateChecked(query, folder, () =>
        migratePglite(drizzlePglite(client), { migrationsFolder: folder }),
      );
    },
    async close() {
      await client.close();
      release();
    },
  };
}
