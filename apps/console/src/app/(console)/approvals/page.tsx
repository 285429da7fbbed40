import "../../../styles/fleet-events.css";
import "../../../styles/approvals.css";
import type { Metadata } from "next";
import { ApprovalsView } from "../../../features/approvals/approvals-view.tsx";
import { statusOf } from "../../../features/approvals/urls.ts";
import { first, type Search } from "../../../lib/search.ts";

export const metadata: Metadata = { title: "Approvals" };

/**
 * The approvals inbox. Its workspace, status tab, fleet and kind filters, page and open gate live in the
 * URL, so a view can be shared and reloaded.
 */
export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  return (
    <ApprovalsView
      position={{
        workspaceId: first(search.workspace),
        status: statusOf(first(search.status)),
        fleetId: first(search.fleet),
        kind: first(search.kind),
        cursor: first(search.cursor),
        gate: first(search.gate),
      }}
    />
  );
}
