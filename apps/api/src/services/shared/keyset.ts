import { Problem } from "@fleet/contracts";
import { type AnyColumn, asc, desc, type SQL, sql } from "@fleet/db";

/**
 * Cursors are opaque to clients; inside, the keyset of the last row served and what the cursor is bound
 * to (the route and its sort), so a cursor from elsewhere is refused rather than misread.
 */
export interface Keyset {
  /** What the cursor is bound to, e.g. `api-keys:-created_at`. */
  bind: string;
  /** The sort value of the last row (epoch ms or text). */
  value: number | string;
  id: string;
}

export function encodeCursor(keyset: Keyset): string {
  return Buffer.from(JSON.stringify([keyset.bind, keyset.value, keyset.id])).toString("base64url");
}

/** Decodes a cursor issued for `bind`; `valueType` is what its sort value must be. */
export function decodeCursor(
  cursor: string,
  bind: string,
  valueType: "number" | "string" = "number",
): Keyset {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    typeof parsed[0] !== "string" ||
    !(Number.isSafeInteger(parsed[1]) || (typeof parsed[1] === "string" && parsed[1].length <= 1024)) ||
    typeof parsed[2] !== "string" ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(parsed[2])
  ) {
    throw new Problem("UZ-REQ-001", { detail: "starting_after is not a cursor this route issued." });
  }
  if (parsed[0] !== bind) {
    throw new Problem("UZ-REQ-001", {
      detail: "starting_after was issued for another sort or route; start again without it.",
    });
  }
  if (typeof parsed[1] !== valueType) {
    throw new Problem("UZ-REQ-001", { detail: "starting_after is not a cursor this route issued." });
  }
  return { bind, value: parsed[1], id: parsed[2] };
}

/**
 * The first `limit` of the rows read (read one more than a page), with a cursor after the last of them
 * when there was one more.
 */
export function takePage<Row>(rows: Row[], limit: number, cursorAfter: (last: Row) => string) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next_cursor: rows.length > limit && last !== undefined ? cursorAfter(last) : null };
}

export interface KeysetQuery<Row> {
  /** What the list's cursors are bound to: the route, its scope, its sort and its filters. */
  bind: string;
  /** The sort column, then the id that breaks its ties; an index ending (sort, id) serves both. */
  sort: AnyColumn;
  id: AnyColumn;
  descending: boolean;
  /** What the sort value is: epoch ms (integers, never a Date, which loses microseconds) or text. */
  valueType?: "number" | "string";
  limit: number;
  starting_after?: string | undefined;
  /** Reads up to `rows` rows past `after` (undefined on the first page) in `order`. */
  read: (page: { after: SQL | undefined; order: SQL[]; rows: number }) => PromiseLike<Row[]>;
  /** The sort value and id of a row, as its cursor carries them. */
  keyOf: (row: Row) => { value: number | string; id: string };
  /** Counts the whole list, read beside the page, for lists that answer a total. */
  count?: () => PromiseLike<{ n: number }[]>;
}

export interface Page<Row> {
  items: Row[];
  next_cursor: string | null;
}

/**
 * One page of a list in (sort, id) order: decodes `starting_after`, reads the rows past it with the
 * row comparison `(sort, id) < ($1, $2::uuid)` (`>` ascending), which PostgreSQL walks along the index,
 * and issues the cursor after the page's last row.
 */
export async function keysetPage<Row>(
  query: KeysetQuery<Row> & { count: NonNullable<KeysetQuery<Row>["count"]> },
): Promise<Page<Row> & { total: number }>;
export async function keysetPage<Row>(query: KeysetQuery<Row>): Promise<Page<Row>>;
export async function keysetPage<Row>(query: KeysetQuery<Row>): Promise<Page<Row> & { total?: number }> {
  const { bind, sort, id, descending } = query;
  let after: SQL | undefined;
  if (query.starting_after !== undefined) {
    const at = decodeCursor(query.starting_after, bind, query.valueType);
    after = descending
      ? sql`(${sort}, ${id}) < (${at.value}, ${at.id}::uuid)`
      : sql`(${sort}, ${id}) > (${at.value}, ${at.id}::uuid)`;
  }
  const order = descending ? [desc(sort), desc(id)] : [asc(sort), asc(id)];
  const [rows, counted] = await Promise.all([
    query.read({ after, order, rows: query.limit + 1 }),
    query.count?.(),
  ]);
  const page = takePage(rows, query.limit, (last) => encodeCursor({ bind, ...query.keyOf(last) }));
  return counted === undefined ? page : { ...page, total: counted[0]?.n ?? 0 };
}
