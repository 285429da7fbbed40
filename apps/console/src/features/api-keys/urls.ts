import type { ApiKeySort } from "@fleet/contracts";
import { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";
import type { ColumnSort } from "@fleet/ui";
import { withQuery } from "../../lib/urls.ts";

export interface ListPosition {
  sort: ApiKeySort;
  limit: number;
  startingAfter?: string | undefined;
}

const defaults = {
  sort: listApiKeys.query.sort.parse(undefined),
  limit: listApiKeys.query.limit.parse(undefined),
};

/** The keys page's URL for a list position; defaults are left out so the plain URL stays plain. */
export function keysHref({ sort, limit, startingAfter }: ListPosition): string {
  return withQuery("/api-keys", {
    sort: sort === defaults.sort ? undefined : sort,
    limit: limit === defaults.limit ? undefined : String(limit),
    starting_after: startingAfter,
  });
}

type SortField = "key_name" | "created_at";

/**
 * Sorting by a column: the first click picks the field's natural order (names A–Z, newest first), the next
 * reverses it. Changing the sort starts over from the first page.
 */
export function keySort(field: SortField, position: ListPosition): ColumnSort {
  const active = position.sort.replace(/^-/, "") === field;
  const descending = position.sort.startsWith("-");
  const natural: ApiKeySort = field === "created_at" ? "-created_at" : "key_name";
  const next: ApiKeySort = active ? (descending ? field : `-${field}`) : natural;
  return {
    href: keysHref({ sort: next, limit: position.limit }),
    current: active ? (descending ? "descending" : "ascending") : undefined,
    next: next.startsWith("-") ? "descending" : "ascending",
  };
}
