import { listApiKeys } from "@fleet/contracts/api-keys/list-api-keys";
import type { Metadata } from "next";
import { ApiKeysView } from "../../../features/api-keys/api-keys-view.tsx";

export const metadata: Metadata = { title: "API keys" };

type Search = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The list's position lives in the URL (cursor, sort, page size) so a view can be shared and reloaded.
 * Values the contract would refuse fall back to the contract's defaults; a cursor is the API's to judge.
 */
export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const query = listApiKeys.query;
  const sort = query.sort.safeParse(first(search.sort));
  const limit = query.limit.safeParse(first(search.limit));
  const cursor = first(search.starting_after);
  return (
    <ApiKeysView
      sort={sort.success ? sort.data : query.sort.parse(undefined)}
      limit={limit.success ? limit.data : query.limit.parse(undefined)}
      startingAfter={cursor || undefined}
    />
  );
}
