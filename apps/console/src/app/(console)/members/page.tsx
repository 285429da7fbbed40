import { listMembers } from "@fleet/contracts/members/list-members";
import type { Metadata } from "next";
import { MembersView } from "../../../features/members/members-view.tsx";

export const metadata: Metadata = { title: "Members" };

type Search = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The list's position (page size, cursor) lives in the URL, so a view can be shared and reloaded. */
export default async function MembersPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const limit = listMembers.query.limit.safeParse(first(search.limit));
  const cursor = first(search.starting_after);
  return (
    <MembersView
      limit={limit.success ? limit.data : listMembers.query.limit.parse(undefined)}
      startingAfter={cursor || undefined}
    />
  );
}
