import "../../../styles/fleet-events.css";
import type { Metadata } from "next";
import { ActivityView } from "../../../features/fleet-events/activity-view.tsx";
import { first, type Search } from "../../../lib/search.ts";

export const metadata: Metadata = { title: "Activity" };

/** The workspace's activity feed: every fleet's runs as they happen. Its workspace and filters live in the URL. */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  return (
    <ActivityView
      workspaceId={first(search.workspace)}
      filter={{
        actor: first(search.actor),
        status: first(search.status),
        type: first(search.type),
        since: first(search.since),
        until: first(search.until),
      }}
    />
  );
}
