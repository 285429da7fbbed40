import type { Metadata } from "next";
import { ApprovalsView } from "../../../features/approvals/approvals-view.tsx";
import {
  approvalsFleetsInput,
  approvalsListInput,
  statusOf,
} from "../../../features/approvals/inbox-query.ts";
import { apiKeyNames, memberNames } from "../../../lib/names-pages.ts";
import { Prefetch } from "../../../lib/prefetch.tsx";
import { first, type Search } from "../../../lib/search.ts";
import type { ApprovalsPosition } from "../../../lib/urls.ts";
import { WORKSPACE_LIMIT } from "../../../lib/use-workspace.ts";

export const metadata: Metadata = { title: "Approvals" };

/**
 * The approvals inbox. Its workspace, status tab, fleet and kind filters, page and open gate live in the
 * URL, so a view can be shared and reloaded.
 */
export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const position: ApprovalsPosition = {
    workspaceId: first(search.workspace),
    status: statusOf(first(search.status)),
    fleetId: first(search.fleet),
    kind: first(search.kind),
    cursor: first(search.cursor),
    // One id however spelled: the list and the pane compare it with the API's lower-case ids.
    gate: first(search.gate)?.toLowerCase(),
  };
  const { workspaceId } = position;
  return (
    <Prefetch
      queries={(trpc, client, api) =>
        // With no workspace in the URL the browser picks one (the one it showed last): nothing to ask ahead.
        workspaceId === undefined
          ? []
          : [
              // The gates, then the one the pane opens (the URL's, else the oldest listed).
              client
                .fetchQuery(trpc.approvals.list.queryOptions(approvalsListInput(workspaceId, position)))
                .then(
                  (list) => {
                    const gateId = position.gate ?? list.items[0]?.gate_id;
                    return gateId === undefined
                      ? undefined
                      : client.prefetchQuery(
                          trpc.approvals.get.queryOptions({ workspace_id: workspaceId, gate_id: gateId }),
                        );
                  },
                  // Refused or late: the browser asks, and the page says why.
                  () => undefined,
                ),
              // The fleet filter's fleets, the names of who asked and answered, the picker, the shell's person.
              client.prefetchQuery(trpc.fleets.list.queryOptions(approvalsFleetsInput(workspaceId))),
              client.prefetchQuery(memberNames(trpc.members.list.pathKey(), api)),
              client.prefetchQuery(apiKeyNames(trpc.apiKeys.list.pathKey(), api)),
              client.prefetchQuery(trpc.workspaces.listVisible.queryOptions({ limit: WORKSPACE_LIMIT })),
              client.prefetchQuery(trpc.users.getMe.queryOptions({})),
            ]
      }
    >
      <ApprovalsView position={position} />
    </Prefetch>
  );
}
