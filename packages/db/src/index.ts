// Query operators come from here, so every package uses the one drizzle-orm instance this package pins.
export {
  type AnyColumn,
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  like,
  lt,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
export { PoolTimeoutError } from "./admission.ts";
export * from "./client.ts";
export {
  type AppliedMigration,
  appliedMigrations,
  type CodeMigration,
  codeMigrations,
  MIGRATIONS_TABLE,
  SchemaMismatchError,
} from "./journal.ts";
export { literalLimit } from "./literal-limit.ts";
export { DataDirLockedError, type LockInfo, readLock } from "./lock.ts";
export * as schema from "./schema/index.ts";
export * from "./schema/index.ts";
