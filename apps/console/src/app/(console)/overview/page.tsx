import "../../../styles/overview.css";
import type { Metadata } from "next";
import { OverviewView } from "../../../features/overview/overview-view.tsx";
import { first, type Search } from "../../../lib/search.ts";

export const metadata: Metadata = { title: "Overview" };

/** The console's home: what needs a person now in one workspace (chosen in the URL). */
export default async function OverviewPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  return <OverviewView workspaceId={first(search.workspace)} />;
}
