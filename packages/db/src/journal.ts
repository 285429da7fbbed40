import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** A migration as this code ships it: its place in the journal, its tag, its `when` and its SQL's hash. */
export interface CodeMigration {
  index: number;
  tag: string;
  /** The journal's `when`: drizzle's migrator records it as `created_at` and orders by it. */
  when: number;
  /** SHA-256 of the SQL file, exactly as drizzle's migrator computes and stores it. */
  hash: string;
}

/** A row of `drizzle.__drizzle_migrations`: what a migrator (of any release) recorded as applied. */
export interface AppliedMigration {
  hash: string;
  createdAt: number;
  /** The tag this project records beside drizzle's row (null for rows written before it did). */
  tag: string | null;
}

/**
 * The database was migrated by other code than this: newer (a rollback), a branch's, or this release's
 * files changed after they were applied. Starting anyway would run code on a schema it does not know:
 * an older release ignores columns it does not know, so restrictions a newer one stored are not enforced.
 */
export class SchemaMismatchError extends Error {
  override name = "SchemaMismatchError";
}

export const MIGRATIONS_TABLE = "drizzle.__drizzle_migrations";

interface Journal {
  entries: { idx: number; tag: string; when: number }[];
}

/** The code's migrations, read as drizzle's `readMigrationFiles` reads them (same hash). */
export function codeMigrations(folder: string): CodeMigration[] {
  const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as Journal;
  return journal.entries.map((entry, index) => ({
    index,
    tag: entry.tag,
    when: entry.when,
    hash: sha256(readFileSync(join(folder, `${entry.tag}.sql`)).toString()),
  }));
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** What the database says it has applied; nothing when it was never migrated. */
export async function appliedMigrations(query: Query): Promise<AppliedMigration[]> {
  const [exists] = await query(`select to_regclass('${MIGRATIONS_TABLE}') is not null as present`);
  if (exists?.present !== true) return [];
  // Through to_jsonb: the tag column exists only once this code (or newer) has migrated the database.
  const rows = await query(
    `select hash, created_at::text as created_at, to_jsonb(m) ->> 'tag' as tag
       from ${MIGRATIONS_TABLE} m order by created_at, id`,
  );
  return rows.map((row) => ({
    hash: String(row.hash),
    createdAt: Number(row.created_at),
    tag: row.tag === null || row.tag === undefined ? null : String(row.tag),
  }));
}

const short = (hash: string) => hash.slice(0, 12);

function describe(row: AppliedMigration): string {
  const when = new Date(row.createdAt).toISOString();
  return row.tag === null ? `an unnamed migration of ${when} (sha256 ${short(row.hash)}…)` : row.tag;
}

/**
 * Refuses (throws SchemaMismatchError) a database this code must not migrate or serve:
 * - migrations applied that this code does not know (a newer release's, or a branch's);
 * - a migration whose SQL changed after it was applied (its stored hash differs);
 * - a migration of this code not applied but ordered before one that is: drizzle's migrator applies only
 *   what sorts after the last applied `when`, so it would be skipped silently (a renumbered migration).
 */
export function checkApplied(applied: AppliedMigration[], code: CodeMigration[]): void {
  const byWhen = new Map(code.map((migration) => [migration.when, migration]));
  const unknown = applied.filter((row) => !byWhen.has(row.createdAt));
  if (unknown.length > 0) {
    const newest = code.at(-1);
    const newer = unknown.every((row) => newest === undefined || row.createdAt > newest.when);
    throw new SchemaMismatchError(
      `the database has ${unknown.length} migration(s) this code does not know: ${unknown.map(describe).join(", ")}; ` +
        (newer
          ? `it was migrated by a newer release (this code ends at ${newest?.tag ?? "no migration"}). ` +
            "Run that release or a newer one: older code on a newer schema is refused (docs/deploy.md, Upgrades)"
          : "they are not this release's (a branch's migrations?); run the code that applied them"),
    );
  }
  const changed = applied.flatMap((row) => {
    const migration = byWhen.get(row.createdAt)!;
    return migration.hash === row.hash ? [] : [{ migration, row }];
  });
  if (changed.length > 0) {
    throw new SchemaMismatchError(
      `migration(s) changed after they were applied to this database: ${changed
        .map(
          ({ migration, row }) =>
            `${migration.tag} (applied sha256 ${short(row.hash)}…, now ${short(migration.hash)}…)`,
        )
        .join(", ")}; a landed migration must never change: add a new one instead`,
    );
  }
  const last = applied.at(-1);
  const done = new Set(applied.map((row) => row.createdAt));
  const skipped = code.filter(
    (migration) => last && migration.when < last.createdAt && !done.has(migration.when),
  );
  if (skipped.length > 0) {
    throw new SchemaMismatchError(
      `migration(s) ${skipped.map((migration) => migration.tag).join(", ")} are not applied but sort before ` +
        `${byWhen.get(last!.createdAt)!.tag}, which is: the migrator would skip them (a migration moved in the journal?)`,
    );
  }
}

/**
 * Records each applied migration's tag beside drizzle's row, so that an older release refusing this
 * database (checkApplied) can name the migrations it does not know.
 */
export async function recordTags(query: Query, code: CodeMigration[]): Promise<void> {
  await query(`alter table ${MIGRATIONS_TABLE} add column if not exists tag text`);
  await query(
    `update ${MIGRATIONS_TABLE} m set tag = c.tag
       from jsonb_to_recordset($1::jsonb) as c(tag text, hash text, created_at bigint)
      where m.created_at = c.created_at and m.hash = c.hash and m.tag is distinct from c.tag`,
    [JSON.stringify(code.map(({ tag, hash, when }) => ({ tag, hash, created_at: when })))],
  );
}

/** Checks what the database has applied against this code, runs the migrator, and records the tags. */
export async function migrateChecked(query: Query, folder: string, migrator: () => Promise<void>) {
  const code = codeMigrations(folder);
  checkApplied(await appliedMigrations(query), code);
  await migrator();
  await recordTags(query, code);
}
