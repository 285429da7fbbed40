import type { Metadata } from "next";
import { OverviewView } from "../../../features/overview/overview-view.tsx";
import { Prefetch } from "../../../lib/prefetch.tsx";
import { first, type Search } from "../../../lib/search.ts";
import { WORKSPACE_LIMIT } from "../../../lib/use-workspace.ts";

export const metadata: Metadata = { title: "Overview" };

/** The console's home: what needs a person now in one workspace (chosen in the URL). */
export default async function OverviewPage({ searchParams }: { searchParams: Promise<Search> }) {
  const workspaceId = first((await searchParams).workspace);
  return (
    <Prefetch
      queries={(trpc, client) =>
        // With no workspace in the URL the browser picks one (the one it showed last): nothing to ask ahead.
        workspaceId === undefined
          ? []
          : [
              client.prefetchQuery(trpc.workspaces.listVisible.queryOptions({ limit: WORKSPACE_LIMIT })),
              client.prefetchQuery(trpc.overview.get.queryOptions({ workspace_id: workspaceId })),
              // The shell's signed-in person.
              client.prefetchQuery(trpc.users.getMe.queryOptions({})),
            ]
      }
    >
      <OverviewView workspaceId={workspaceId} />
    </Prefetch>
  );
}
