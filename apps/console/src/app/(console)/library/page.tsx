import type { Metadata } from "next";
import { LibraryView } from "../../../features/fleet-libraries/library-view.tsx";
import { first, type Search } from "../../../lib/search.ts";

export const metadata: Metadata = { title: "Library" };

/** The workspace, the page's cursor and its page size (a cursor is bound to it) live in the URL. */
export default async function LibraryPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const limit = Number(first(search.limit));
  return (
    <LibraryView
      workspaceId={first(search.workspace)}
      startingAfter={first(search.starting_after)}
      // The API judges the range (and says why, UZ-LIBRARY-003); only a number is passed on.
      limit={Number.isInteger(limit) ? limit : undefined}
    />
  );
}
