import { Problem } from "@fleet/contracts";
import { and, count, type Database, desc, eq, fleetLibraries, or, type SQL, sql } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { takePage } from "../shared/keyset.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import type { LibraryEntry } from "./entries.ts";
import { toLibraryItem } from "./item.ts";

/** The largest list body the service answers; a page past it is 500 UZ-LIBRARY-005. */
export const LIST_BODY_CEILING = 1024 * 1024;

const DEFAULT_LIMIT = 50;
const CURSOR_KIND = "fleet-libraries";
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Visibility = "platform" | "tenant";

/** The last row served: created_at, then platform before tenant, then id. */
interface Position {
  createdAt: number;
  visibility: Visibility;
  id: string;
}

/** 1 to 100; anything else, including text that is not an integer, is UZ-LIBRARY-003. */
function pageSize(limit: number | string | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  const value = typeof limit === "number" ? limit : /^\d{1,3}$/.test(limit) ? Number(limit) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > 100) {
    throw new Problem("UZ-LIBRARY-003", { detail: "limit must be an integer from 1 to 100." });
  }
  return value;
}

/**
 * Cursors are opaque to clients; inside, the listing they belong to (the workspace), the page size they
 * were issued for, and the position of the last row served.
 */
function encodeCursor(workspaceId: string, limit: number, at: Position): string {
  const content = [CURSOR_KIND, workspaceId, limit, at.createdAt, at.visibility, at.id];
  return Buffer.from(JSON.stringify(content)).toString("base64url");
}

function decodeCursor(cursor: string, workspaceId: string, limit: number): Position {
  const unknown = new Problem("UZ-LIBRARY-001", {
    detail: "starting_after is not a cursor this endpoint issued; start again without it.",
  });
  let parsed: unknown = null;
  if (cursor.length <= 512 && /^[A-Za-z0-9_-]+$/.test(cursor)) {
    try {
      parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    } catch {
      parsed = null;
    }
  }
  if (!Array.isArray(parsed) || parsed.length !== 6) throw unknown;
  const [kind, workspace, size, createdAt, visibility, id] = parsed as unknown[];
  if (
    kind !== CURSOR_KIND ||
    workspace !== workspaceId ||
    !Number.isSafeInteger(size) ||
    !Number.isSafeInteger(createdAt) ||
    (visibility !== "platform" && visibility !== "tenant") ||
    typeof id !== "string" ||
    !uuid.test(id)
  ) {
    throw unknown;
  }
  if (size !== limit) {
    throw new Problem("UZ-LIBRARY-002", {
      detail: `starting_after was issued for limit=${size}; send that limit with it, or start again without it.`,
    });
  }
  return { createdAt: createdAt as number, visibility, id };
}

/**
 * Rows of one visibility after `after` in the list's order. A platform row follows a tenant row of the same
 * millisecond never; a tenant row follows a platform row of the same millisecond always.
 */
function after(visibility: Visibility, at: Position | null): SQL | undefined {
  if (at === null) return undefined;
  const { createdAt, id } = fleetLibraries;
  if (at.visibility === visibility) return sql`(${createdAt}, ${id}) < (${at.createdAt}, ${at.id}::uuid)`;
  return visibility === "platform"
    ? sql`${createdAt} < ${at.createdAt}`
    : sql`${createdAt} <= ${at.createdAt}`;
}

function compare(a: LibraryEntry, b: LibraryEntry): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  if (a.visibility !== b.visibility) return a.visibility === "platform" ? -1 : 1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

async function slice(db: Database, scope: SQL, position: SQL | undefined, rows: number) {
  return db
    .select()
    .from(fleetLibraries)
    .where(position === undefined ? scope : and(scope, position))
    .orderBy(desc(fleetLibraries.createdAt), desc(fleetLibraries.id))
    .limit(rows);
}

/**
 * The entries a workspace can install: platform entries and its own, newest first, then platform before
 * tenant, then id (descending). Keyset-paged over both partitions, each read along its own index.
 */
export async function listLibraries(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; starting_after?: string; limit?: number | string },
) {
  const limit = pageSize(input.limit);
  const at =
    input.starting_after === undefined ? null : decodeCursor(input.starting_after, input.workspace_id, limit);
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  const platform = eq(fleetLibraries.visibility, "platform");
  const own = and(
    eq(fleetLibraries.visibility, "tenant"),
    eq(fleetLibraries.workspaceId, input.workspace_id),
    eq(fleetLibraries.tenantId, tenantId),
  )!;
  const [platformRows, ownRows, [total]] = await Promise.all([
    slice(ctx.db, platform, after("platform", at), limit + 1),
    slice(ctx.db, own, after("tenant", at), limit + 1),
    ctx.db.select({ n: count() }).from(fleetLibraries).where(or(platform, own)),
  ]);
  const { items, next_cursor } = takePage([...platformRows, ...ownRows].sort(compare), limit, (last) =>
    encodeCursor(input.workspace_id, limit, {
      createdAt: last.createdAt,
      visibility: last.visibility as Visibility,
      id: last.id,
    }),
  );
  const page = { items: items.map(toLibraryItem), total: total?.n ?? 0, next_cursor };
  const bytes = Buffer.byteLength(JSON.stringify(page));
  if (bytes > LIST_BODY_CEILING) {
    throw new Problem("UZ-LIBRARY-005", {
      detail: `This page would be ${bytes} bytes, over the ${LIST_BODY_CEILING}-byte ceiling; ask for a smaller limit.`,
    });
  }
  return page;
}
