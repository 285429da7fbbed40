import { MODELS_PAGE_MAX } from "@fleet/contracts";
import { and, type Database, eq, modelCatalogue, models, type SQL, sql, type Tx } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";

const CATALOGUE = "catalogue";

/** The catalogue's current version; 0 before its first change. */
export async function catalogueVersion(db: Database | Tx): Promise<number> {
  const [row] = await db
    .select({ version: modelCatalogue.version })
    .from(modelCatalogue)
    .where(eq(modelCatalogue.id, CATALOGUE));
  return row?.version ?? 0;
}

/** Bumps the version inside the changing transaction: readers see the new version with the new rows. */
export async function bumpCatalogueVersion(tx: Tx, now: number): Promise<void> {
  await tx
    .insert(modelCatalogue)
    .values({ id: CATALOGUE, version: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: modelCatalogue.id,
      set: { version: sql`${modelCatalogue.version} + 1`, updatedAt: now },
    });
}

/** The strong entity tag of a catalogue version. */
export function catalogueTag(version: number): string {
  return `"catalogue-${version}"`;
}

/** Whether an If-None-Match header names the tag (weak comparison, as RFC 9110 asks of If-None-Match). */
export function tagMatches(ifNoneMatch: string | undefined, tag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(",")
    .map((candidate) => candidate.trim().replace(/^W\//, ""))
    .some((candidate) => candidate === "*" || candidate === tag);
}

export type ModelRow = typeof models.$inferSelect;

/** The exact provider filter; a provider the catalogue does not know simply matches nothing. */
export function providerIs(provider: string): SQL {
  return eq(models.provider, provider as ModelRow["provider"]);
}

/**
 * One page of the catalogue, oldest row first, keyset-paged over (created_at, uid). The version is read
 * before the rows: a change committing in between makes the answer's version older than its rows (a
 * needless refetch later), never newer (which would let a client keep stale rows under a current tag).
 */
export async function catalogueReader(
  ctx: ServiceContext,
  bind: string,
  input: { provider?: string; starting_after?: string; limit: number },
) {
  const version = await catalogueVersion(ctx.db);
  const filters: SQL[] = input.provider === undefined ? [] : [providerIs(input.provider)];
  const page = await keysetPage({
    bind,
    sort: models.createdAt,
    id: models.uid,
    descending: false,
    limit: Math.min(input.limit, MODELS_PAGE_MAX),
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(models)
        .where(and(...filters, after))
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.createdAt, id: row.uid }),
  });
  return { version, rows: page.items, next_cursor: page.next_cursor };
}
