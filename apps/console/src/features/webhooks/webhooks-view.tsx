"use client";

import { GuardedButton, PlusIcon, SendIcon } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { PageHeader } from "../../components/page-header.tsx";
import { WorkspaceCard, WorkspaceListBody } from "../../components/workspace-list.tsx";
import { useLacking } from "../../lib/access.ts";
import { usePageActions } from "../../lib/commands.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { DisabledEndpointsNotice } from "./disabled-notice.tsx";
import type { Endpoint } from "./endpoint.ts";
import { DeleteEndpointDialog, RotateSecretDialog } from "./endpoint-action-dialogs.tsx";
import { EndpointDialog } from "./endpoint-dialog.tsx";
import { type EndpointAction, EndpointsTable } from "./endpoints-table.tsx";
import { webhooksHref } from "./urls.ts";
import { useEndpointToggle } from "./use-endpoint-toggle.ts";

/** A workspace has at most 50 endpoints: one page of 100 is all of them. */
const ALL = 100;

type Pending = { action: "rotate" | "delete"; endpoint: Endpoint } | null;

export function WebhooksView({ workspaceId }: { workspaceId: string | undefined }) {
  const trpc = useTRPC();
  const choice = useWorkspaceChoice(workspaceId);
  const { chosenId, workspace } = choice;

  // No placeholder data across workspaces: a row from the previous workspace must never be acted on.
  const list = useQuery(
    trpc.webhookEndpoints.list.queryOptions(chosenId ? { workspace_id: chosenId, limit: ALL } : skipToken),
  );
  const eventTypes = useQuery(trpc.webhookEndpoints.listEventTypes.queryOptions({}));
  const fleets = useQuery(
    trpc.fleets.list.queryOptions(chosenId ? { workspace_id: chosenId, limit: 100 } : skipToken),
  );
  const fleetItems = (fleets.data?.items ?? []).map((fleet) => ({ id: fleet.id, name: fleet.name }));
  const fleetNames = new Map(fleetItems.map((fleet) => [fleet.id, fleet.name]));

  // The form's dialog: closed, a new endpoint, or one to change.
  const [editing, setEditing] = useState<{ endpoint: Endpoint | null } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  // What the last action did, said where the eyes are once its dialog closes; only in its workspace.
  const [outcome, setOutcome] = useState<{ workspaceId: string; message: string } | null>(null);
  const done = outcome !== null && outcome.workspaceId === chosenId ? outcome.message : null;
  const setDone = (message: string | null) =>
    setOutcome(message !== null && chosenId ? { workspaceId: chosenId, message } : null);

  const toggle = useEndpointToggle(setDone);

  const openCreate = () => {
    setDone(null);
    setEditing({ endpoint: null });
  };
  const act = (action: EndpointAction, endpoint: Endpoint) => {
    setDone(null);
    if (action === "edit") setEditing({ endpoint });
    else if (action === "enable" || action === "disable") toggle.set(endpoint, action === "enable");
    else setPending({ action, endpoint });
  };
  const cannotWrite = useLacking("webhook:write");
  usePageActions(
    chosenId && !cannotWrite
      ? [{ label: "Add webhook endpoint", keywords: "subscribe events outgoing", run: openCreate }]
      : [],
  );
  const createButton = (variant: "primary" | "secondary") => (
    <GuardedButton variant={variant} icon={<PlusIcon />} unavailable={cannotWrite} onClick={openCreate}>
      Add endpoint
    </GuardedButton>
  );

  const count = list.data?.items.length;
  return (
    <div className="page">
      <PageHeader
        title="Webhooks"
        description="Endpoints that receive the workspace's events as signed HTTP posts (Standard Webhooks), at least once and in order for each gate or event, retried for about three days until they answer 2xx. Each endpoint's signing secret is shown once, when it is created or rotated."
        actions={list.data !== undefined && workspace !== undefined ? createButton("primary") : null}
      />
      <WorkspaceCard
        headingId="webhooks-heading"
        heading="Webhook endpoints"
        choice={choice}
        hrefFor={webhooksHref}
        done={done}
        summary={
          count !== undefined && count > 0 ? (
            <p className="toolbar-summary">
              {count} {count === 1 ? "endpoint" : "endpoints"} · newest first
            </p>
          ) : null
        }
      >
        <WorkspaceListBody
          choice={choice}
          list={list}
          waitForNames
          loading="Loading webhook endpoints…"
          noWorkspaces="Webhook endpoints belong to a workspace. Create one through the API (POST /v1/workspaces), then come back to subscribe an endpoint to its events."
          retryWorkspaces
          workspaceHref={webhooksHref}
        >
          {(data, workspace) =>
            data.items.length === 0 ? (
              <div className="empty-state">
                <span className="empty-state__icon" aria-hidden="true">
                  <SendIcon />
                </span>
                <p className="empty-state__title">No webhook endpoints in {workspace.name} yet</p>
                <p className="empty-state__text">
                  Add an endpoint to have your own service told when a gate opens or is decided, or when an
                  event completes or fails: each delivery signed, retried until it is received.
                </p>
                {createButton("secondary")}
              </div>
            ) : (
              <>
                <DisabledEndpointsNotice endpoints={data.items} />
                <EndpointsTable
                  endpoints={data.items}
                  workspaceName={workspace.name}
                  fleetNames={fleetNames}
                  onAction={act}
                />
              </>
            )
          }
        </WorkspaceListBody>
      </WorkspaceCard>
      {workspace && editing ? (
        <EndpointDialog
          open
          workspace={workspace}
          endpoint={editing.endpoint}
          eventTypes={eventTypes.data?.items ?? []}
          fleets={fleetItems}
          onClose={() => setEditing(null)}
          onDone={setDone}
        />
      ) : null}
      {chosenId && pending?.action === "rotate" ? (
        <RotateSecretDialog
          workspaceId={chosenId}
          endpoint={pending.endpoint}
          onClose={() => setPending(null)}
          onDone={setDone}
        />
      ) : null}
      {chosenId && pending?.action === "delete" ? (
        <DeleteEndpointDialog
          workspaceId={chosenId}
          endpoint={pending.endpoint}
          onClose={() => setPending(null)}
          onDone={setDone}
        />
      ) : null}
    </div>
  );
}
