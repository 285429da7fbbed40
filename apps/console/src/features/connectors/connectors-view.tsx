"use client";

import { PlugIcon } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import { PageHeader } from "../../components/page-header.tsx";
import { WorkspaceCard, WorkspaceListBody } from "../../components/workspace-list.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { ChatLinksPanel } from "../chat-links/chat-links-panel.tsx";
import { ConnectorPanel } from "./connector-panel.tsx";
import { connectorsHref } from "./urls.ts";
import "./connectors-view.css";

/**
 * What the vendor's redirect back said (`?connected=slack`, `?declined=slack`), in words: only for a
 * provider of the catalogue, named by its display name. The URL is anyone's to write, so no text of it is
 * shown: a link saying `?connected=…` with words of its own shows no notice at all.
 */
function outcomeOf(
  returned: { connected?: string; declined?: string },
  catalogue: readonly { id: string; display_name: string }[] | undefined,
): string | null {
  const named = (id: string | undefined) => catalogue?.find((provider) => provider.id === id)?.display_name;
  const connected = named(returned.connected);
  if (connected) return `Connected ${connected}. Route a channel to a fleet below.`;
  const declined = named(returned.declined);
  if (declined) return `Nothing changed: access to ${declined} was not granted.`;
  return null;
}

export function ConnectorsView({
  workspaceId,
  returned,
}: {
  workspaceId: string | undefined;
  returned: { connected?: string; declined?: string };
}) {
  const trpc = useTRPC();
  const choice = useWorkspaceChoice(workspaceId);
  const { chosenId } = choice;
  const list = useQuery(
    trpc.connectors.listWorkspace.queryOptions(chosenId ? { workspace_id: chosenId } : skipToken),
  );
  return (
    <div className="page">
      <PageHeader
        title="Connectors"
        description="Connections from a workspace to outside providers. A connected chat provider brings messages to your fleets, posts their answers back in the thread, and shows approval gates with Approve and Deny buttons; an API-key provider is connected with a key it checks first."
      />
      <WorkspaceCard
        headingId="connectors-heading"
        heading="Connectors"
        choice={choice}
        hrefFor={connectorsHref}
        done={chosenId === workspaceId ? outcomeOf(returned, list.data) : null}
      >
        <WorkspaceListBody
          choice={choice}
          list={list}
          waitForNames
          loading="Loading connectors…"
          noWorkspaces="Connectors belong to a workspace. Create one through the API (POST /v1/workspaces), then come back to connect it."
          retryWorkspaces
          workspaceHref={connectorsHref}
        >
          {(providers, workspace) =>
            providers.length === 0 ? (
              <div className="empty-state">
                <span className="empty-state__icon" aria-hidden="true">
                  <PlugIcon />
                </span>
                <p className="empty-state__title">This deployment offers no providers</p>
              </div>
            ) : (
              <ul className="connector-list">
                {providers.map((provider) => (
                  <li key={provider.id}>
                    <ConnectorPanel provider={provider} workspace={workspace} />
                  </li>
                ))}
              </ul>
            )
          }
        </WorkspaceListBody>
      </WorkspaceCard>
      <ChatLinksPanel />
    </div>
  );
}
