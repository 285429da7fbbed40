import type { Metadata } from "next";
import { EntryView } from "../../../../features/fleet-libraries/entry-view.tsx";
import { first, type Search } from "../../../../lib/search.ts";

export const metadata: Metadata = { title: "Library entry" };

export default async function LibraryEntryPage({
  params,
  searchParams,
}: {
  params: Promise<{ libraryId: string }>;
  searchParams: Promise<Search>;
}) {
  const [{ libraryId }, search] = await Promise.all([params, searchParams]);
  return <EntryView workspaceId={first(search.workspace)} libraryId={libraryId} />;
}
