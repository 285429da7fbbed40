import type { Metadata } from "next";
import { turnIds } from "../../../../features/fleet-events/turns.ts";
import { apiKeyNames, memberNames } from "../../../../lib/names-pages.ts";
import { Prefetch } from "../../../../lib/prefetch.tsx";
import { first, type Search } from "../../../../lib/search.ts";
import type { FleetTab } from "../../../../lib/urls.ts";
import { FleetView } from "./fleet-view.tsx";

export const metadata: Metadata = { title: "Fleet" };

function tabOf(value: string | undefined): FleetTab {
  return value === "memories" || value === "schedules" || value === "grants" ? value : "events";
}

/**
 * One fleet. Its workspace, the tab (events, memories, schedules, grants), each tab's filters and page, and the
 * event open in the inspect dialog live in the URL, so any view of it can be shared and reloaded.
 */
export default async function FleetPage({
  params,
  searchParams,
}: {
  params: Promise<{ fleetId: string }>;
  searchParams: Promise<Search>;
}) {
  const [{ fleetId }, search] = await Promise.all([params, searchParams]);
  const workspaceId = first(search.workspace);
  const fleet = workspaceId === undefined ? undefined : { workspace_id: workspaceId, fleet_id: fleetId };
  return (
    <Prefetch
      queries={(trpc, client, api) =>
        // What FleetView asks for first: the fleet and its newest events side by side, with the names of
        // the people and keys its events name and the shell's signed-in person, then the bodies of the
        // conversation's turns.
        fleet === undefined
          ? []
          : [
              client.prefetchQuery(trpc.fleets.get.queryOptions(fleet)),
              client.prefetchQuery(trpc.users.getMe.queryOptions({})),
              client.prefetchQuery(memberNames(trpc.members.list.pathKey(), api)),
              client.prefetchQuery(apiKeyNames(trpc.apiKeys.list.pathKey(), api)),
              client.fetchQuery(trpc.fleetEvents.list.queryOptions(fleet)).then(
                (list) =>
                  Promise.all(
                    turnIds(list.items.map((item) => item.event_id)).map((eventId) =>
                      client.prefetchQuery(
                        trpc.fleetEvents.get.queryOptions({ ...fleet, event_id: eventId }),
                      ),
                    ),
                  ),
                // Refused or late: the browser asks, and the page says why.
                () => undefined,
              ),
            ]
      }
    >
      <FleetView
        workspaceId={workspaceId}
        position={{
          fleetId,
          tab: tabOf(first(search.tab)),
          actor: first(search.actor),
          status: first(search.status),
          type: first(search.type),
          since: first(search.since),
          until: first(search.until),
          after: first(search.after),
          event: first(search.event),
          category: first(search.category),
          q: first(search.q),
          memoriesAfter: first(search.memories_after),
          grantsAfter: first(search.grants_after),
        }}
      />
    </Prefetch>
  );
}
