"use client";

import {
  ActionMenu,
  Button,
  GuardedButton,
  type MenuAction,
  MoreIcon,
  ProblemAlert,
  RelativeTime,
  Skeleton,
} from "@fleet/ui";
import { skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { DoneStatus } from "../../components/done-status.tsx";
import { Link } from "../../components/link.tsx";
import { useLacking } from "../../lib/access.ts";
import { pollInterval } from "../../lib/poll.ts";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { DeliveriesPanel } from "./deliveries-panel.tsx";
import type { Delivery } from "./delivery.ts";
import { DeliveryDialog } from "./delivery-dialog.tsx";
import { DisabledEndpointNotice } from "./disabled-notice.tsx";
import { endpointName, managedReason } from "./endpoint.ts";
import { DeleteEndpointDialog, RotateSecretDialog } from "./endpoint-action-dialogs.tsx";
import { EndpointDialog } from "./endpoint-dialog.tsx";
import { EndpointFacts, EndpointState } from "./endpoint-facts.tsx";
import { useNewBehindBanner } from "./new-deliveries.ts";
import { ReplayDialog } from "./replay-dialog.tsx";
import { type EndpointPosition, endpointHref, webhooksHref } from "./urls.ts";
import { useDeliveries, useWebhooksRefresh } from "./use-deliveries.ts";
import { useOpenedDelivery } from "./use-delivery.ts";
import { useEndpointToggle } from "./use-endpoint-toggle.ts";
import "../../styles/card-parts.css";
import "../../styles/detail-page.css";
import "./deliveries.css";

type Open = "edit" | "rotate" | "delete" | "replay" | null;

function Breadcrumb({ workspaceId, name }: { workspaceId: string | undefined; name?: string }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        <li>
          <Link href={webhooksHref(workspaceId)}>Webhooks</Link>
        </li>
        {name ? <li aria-current="page">{name}</li> : null}
      </ol>
    </nav>
  );
}

/**
 * One webhook endpoint: its facts and health, its actions (those of the list's row, plus Send test and
 * Replay since…), and its delivery log. Live enough: the endpoint and its log ask again after each action
 * and on window focus, and every few seconds while a delivery shown is pending.
 */
export function EndpointView({ position }: { position: EndpointPosition }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const choice = useWorkspaceChoice(position.workspaceId);
  const workspaceId = choice.chosenId;
  const here = { ...position, workspaceId };
  const deliveries = useDeliveries(here);
  const opened = useOpenedDelivery(here, deliveries);
  const fresh = useNewBehindBanner(
    deliveries.isPlaceholderData ? undefined : deliveries.data?.items,
    deliveries.dataUpdatedAt,
    JSON.stringify([position.status, position.type, position.after]),
    position.after === undefined,
  );
  const anyPending = deliveries.data?.items.some((delivery) => delivery.status === "pending") ?? false;
  const query = useQuery(
    trpc.webhookEndpoints.get.queryOptions(
      workspaceId ? { workspace_id: workspaceId, endpoint_id: position.endpointId } : skipToken,
      // Its health moves with the attempts: while the log polls, so does the endpoint.
      { refetchInterval: (q) => (anyPending ? pollInterval(q) : false), refetchIntervalInBackground: false },
    ),
  );
  const refresh = useWebhooksRefresh();
  const cannotWrite = useLacking("webhook:write");
  const [open, setOpen] = useState<Open>(null);
  const [done, setDone] = useState<string | null>(null);
  const toggle = useEndpointToggle(setDone);
  const eventTypes = useQuery(trpc.webhookEndpoints.listEventTypes.queryOptions({}));
  const fleets = useQuery(
    trpc.fleets.list.queryOptions(workspaceId ? { workspace_id: workspaceId, limit: 100 } : skipToken),
  );
  const fleetItems = (fleets.data?.items ?? []).map((fleet) => ({ id: fleet.id, name: fleet.name }));

  // A retried delivery is pending at once in the log (the answer is the delivery), then the log asks again.
  const retry = useMutation(
    trpc.webhookEndpoints.retryDelivery.mutationOptions({
      onSuccess: async (changed) => {
        queryClient.setQueriesData<{ items: Delivery[] }>(
          { queryKey: trpc.webhookEndpoints.listDeliveries.pathKey() },
          (page) =>
            page && { ...page, items: page.items.map((item) => (item.id === changed.id ? changed : item)) },
        );
        // And the dialog's own read, when the delivery was not on the page.
        queryClient.setQueriesData<Delivery>(
          { queryKey: trpc.webhookEndpoints.getDelivery.pathKey() },
          (delivery) => (delivery?.id === changed.id ? changed : delivery),
        );
        setDone(`Retrying the ${changed.type} delivery: it is pending.`);
        await refresh();
      },
      onError: (error) => setDone(`Not retried: ${problemOf(error).title}.`),
    }),
  );
  const sendTest = useMutation(
    trpc.webhookEndpoints.test.mutationOptions({
      onSuccess: async () => {
        setDone("Sent a test ping: it is pending in the log.");
        fresh.showAll();
        // The ping is the newest delivery: shown on the log's first page, unless a filter leaves it out.
        if (position.after || position.status || position.type)
          router.replace(
            endpointHref({
              ...here,
              after: undefined,
              status: undefined,
              type: undefined,
              delivery: undefined,
            }),
            { scroll: false },
          );
        await refresh();
      },
      onError: (error) => setDone(`No test sent: ${problemOf(error).title}.`),
    }),
  );
  const act = (what: Open) => {
    setDone(null);
    setOpen(what);
  };
  const onRetry = (delivery: Delivery) => {
    setDone(null);
    if (workspaceId)
      retry.mutate({ workspace_id: workspaceId, endpoint_id: position.endpointId, event_id: delivery.id });
  };

  const endpoint = query.data;
  if (endpoint === undefined) {
    return (
      <div className="page page--fluid">
        <Breadcrumb workspaceId={workspaceId} />
        {query.error ? (
          <ProblemAlert problem={problemOf(query.error)}>
            <Button size="sm" pending={query.isFetching} onClick={() => query.refetch()}>
              Try again
            </Button>
            <Link className="ui-button ui-button--secondary ui-button--sm" href={webhooksHref(workspaceId)}>
              Back to Webhooks
            </Link>
          </ProblemAlert>
        ) : (
          <Skeleton label="Loading the webhook endpoint…" shape="page" />
        )}
      </div>
    );
  }

  const name = endpointName(endpoint);
  const managed = managedReason(endpoint);
  const onOff: MenuAction = endpoint.enabled
    ? { label: "Disable", onSelect: () => toggle.set(endpoint, false) }
    : { label: "Enable", onSelect: () => toggle.set(endpoint, true) };
  // The notice endpoint is only enabled or disabled here; the rest is the approval policy's.
  const menu: MenuAction[] =
    managed === null
      ? [
          { label: "Rotate secret", onSelect: () => act("rotate") },
          onOff,
          { label: "Delete", tone: "danger", onSelect: () => act("delete") },
        ]
      : [onOff];
  return (
    <div className="page page--fluid">
      <Breadcrumb workspaceId={workspaceId} name={name} />
      <header className="page-header fleet-header endpoint-header">
        <div>
          <div className="fleet-header__title">
            <h1 className="page-header__title endpoint-header__title">{name}</h1>
            <EndpointState endpoint={endpoint} />
          </div>
          <p className="fleet-header__meta">
            {endpoint.description ? <span>{endpoint.description}</span> : null}
            <span>
              Created <RelativeTime value={endpoint.created_at} />
            </span>
          </p>
        </div>
        <div className="page-header__actions endpoint-actions">
          <GuardedButton
            variant="primary"
            unavailable={cannotWrite}
            pending={sendTest.isPending}
            onClick={() => {
              setDone(null);
              sendTest.mutate({ workspace_id: endpoint.workspace_id, endpoint_id: endpoint.id });
            }}
          >
            Send test
          </GuardedButton>
          <GuardedButton unavailable={cannotWrite} onClick={() => act("replay")}>
            Replay since…
          </GuardedButton>
          <GuardedButton
            aria-label={`Edit webhook endpoint ${name}`}
            unavailable={cannotWrite ?? managed}
            onClick={() => act("edit")}
          >
            Edit
          </GuardedButton>
          {cannotWrite ? (
            <GuardedButton
              icon={<MoreIcon />}
              aria-label={`More actions for webhook endpoint ${name}`}
              unavailable={cannotWrite}
            />
          ) : (
            <ActionMenu label={`More actions for webhook endpoint ${name}`} actions={menu} />
          )}
        </div>
      </header>
      <DoneStatus done={done} className="endpoint-done" />
      <DisabledEndpointNotice
        endpoint={endpoint}
        enabling={toggle.pending}
        onEnable={() => {
          setDone(null);
          toggle.set(endpoint, true);
        }}
      />
      <EndpointFacts
        endpoint={endpoint}
        fleetName={fleetItems.find((f) => f.id === endpoint.fleet_id)?.name}
      />
      <DeliveriesPanel
        position={here}
        list={deliveries}
        shown={fresh.shown}
        waiting={fresh.waiting}
        onShowNew={fresh.showNew}
        endpointName={name}
        cannotWrite={cannotWrite}
        retrying={retry.isPending ? retry.variables?.event_id : undefined}
        onRetry={onRetry}
      />
      <DeliveryDialog
        deliveryId={position.delivery}
        opened={opened}
        cannotWrite={cannotWrite}
        retrying={retry.isPending && retry.variables?.event_id === position.delivery}
        onRetry={onRetry}
        onClose={() => router.replace(endpointHref({ ...here, delivery: undefined }), { scroll: false })}
      />
      {open === "edit" && choice.workspace ? (
        <EndpointDialog
          open
          workspace={choice.workspace}
          endpoint={endpoint}
          eventTypes={eventTypes.data?.items ?? []}
          fleets={fleetItems}
          onClose={() => setOpen(null)}
          onDone={setDone}
        />
      ) : null}
      {open === "rotate" ? (
        <RotateSecretDialog
          workspaceId={endpoint.workspace_id}
          endpoint={endpoint}
          onClose={() => setOpen(null)}
          onDone={setDone}
        />
      ) : null}
      {open === "delete" ? (
        <DeleteEndpointDialog
          workspaceId={endpoint.workspace_id}
          endpoint={endpoint}
          onClose={() => setOpen(null)}
          onDone={() => router.push(webhooksHref(endpoint.workspace_id))}
        />
      ) : null}
      {open === "replay" ? (
        <ReplayDialog
          endpoint={endpoint}
          onQueued={fresh.showAll}
          onClose={() => setOpen(null)}
          onDone={setDone}
        />
      ) : null}
    </div>
  );
}
