import { listFleets } from "@fleet/contracts/fleets/list-fleets";
import type { Metadata } from "next";
import { FleetsView } from "../../../features/fleets/fleets-view.tsx";
import { first, type Search } from "../../../lib/search.ts";

export const metadata: Metadata = { title: "Fleets" };

/**
 * The workspace and the page (its cursor) live in the URL, so a view can be shared and reloaded. A limit
 * the contract would refuse falls back to its default; the cursor and workspace are the API's to judge.
 */
export default async function FleetsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const limit = listFleets.query.limit.safeParse(first(search.limit));
  return (
    <FleetsView
      workspaceId={first(search.workspace)}
      startingAfter={first(search.starting_after)}
      filter={{ status: first(search.status), name: first(search.name) }}
      limit={first(search.limit) !== undefined && limit.success ? limit.data : undefined}
    />
  );
}
