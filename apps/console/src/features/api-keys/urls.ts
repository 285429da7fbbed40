import type { ApiKeySort } from "@fleet/contracts";
import { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";

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
  const params = new URLSearchParams();
  if (sort !== defaults.sort) params.set("sort", sort);
  if (limit !== defaults.limit) params.set("limit", String(limit));
  if (startingAfter) params.set("starting_after", startingAfter);
  const query = params.toString();
  return query ? `/api-keys?${query}` : "/api-keys";
}
