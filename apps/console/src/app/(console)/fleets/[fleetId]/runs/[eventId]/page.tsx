import type { Metadata } from "next";
import { RunView } from "../../../../../../features/fleet-events/run-view.tsx";
import { apiKeyNames, memberNames } from "../../../../../../lib/names-pages.ts";
import { Prefetch } from "../../../../../../lib/prefetch.tsx";
import { first, type Search } from "../../../../../../lib/search.ts";

export const metadata: Metadata = { title: "Run" };

/**
 * One run (a fleet event) on a page of its own, so chat, the command line, the overview and the inbox can
 * link to it: its conversation, steps, gates and spend above the fold, the request and answer in full below.
 * The workspace is in the URL, as on every workspace page.
 */
export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ fleetId: string; eventId: string }>;
  searchParams: Promise<Search>;
}) {
  const [{ fleetId, eventId }, search] = await Promise.all([params, searchParams]);
  const workspaceId = first(search.workspace);
  const fleet = workspaceId === undefined ? undefined : { workspace_id: workspaceId, fleet_id: fleetId };
  return (
    <Prefetch
      queries={(trpc, client, api) =>
        fleet === undefined
          ? []
          : [
              client.prefetchQuery(trpc.fleets.get.queryOptions(fleet)),
              client.prefetchQuery(trpc.fleetEvents.get.queryOptions({ ...fleet, event_id: eventId })),
              client.prefetchQuery(trpc.users.getMe.queryOptions({})),
              client.prefetchQuery(memberNames(trpc.members.list.pathKey(), api)),
              client.prefetchQuery(apiKeyNames(trpc.apiKeys.list.pathKey(), api)),
            ]
      }
    >
      <RunView workspaceId={workspaceId} fleetId={fleetId} eventId={eventId} />
    </Prefetch>
  );
}
