import type { Metadata } from "next";
import { EventsView } from "../../../features/fleet-events/events-view.tsx";
import { eventFeedInput } from "../../../features/fleet-events/feed.ts";
import { apiKeyNames, fleetNames, memberNames } from "../../../lib/names-pages.ts";
import { Prefetch } from "../../../lib/prefetch.tsx";
import { first, type Search } from "../../../lib/search.ts";
import { WORKSPACE_LIMIT } from "../../../lib/use-workspace.ts";

export const metadata: Metadata = { title: "Events" };

/** The workspace's events: every fleet's runs as they happen. Its workspace and filters live in the URL. */
export default async function EventsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const workspaceId = first(search.workspace);
  const filter = {
    actor: first(search.actor),
    status: first(search.status),
    type: first(search.type),
    since: first(search.since),
    until: first(search.until),
  };
  return (
    <Prefetch
      queries={(trpc, client, api) =>
        // With no workspace in the URL the browser picks one (the one it showed last): nothing to ask ahead.
        workspaceId === undefined
          ? []
          : [
              // The feed with the names of its fleets and actors, the workspace picker and the shell's person.
              client.prefetchQuery(
                trpc.fleetEvents.listWorkspace.queryOptions(eventFeedInput(workspaceId, filter)),
              ),
              client.prefetchQuery(fleetNames(trpc.fleets.list.pathKey(), api, workspaceId)),
              client.prefetchQuery(memberNames(trpc.members.list.pathKey(), api)),
              client.prefetchQuery(apiKeyNames(trpc.apiKeys.list.pathKey(), api)),
              client.prefetchQuery(trpc.workspaces.listVisible.queryOptions({ limit: WORKSPACE_LIMIT })),
              client.prefetchQuery(trpc.users.getMe.queryOptions({})),
            ]
      }
    >
      <EventsView workspaceId={workspaceId} filter={filter} />
    </Prefetch>
  );
}
