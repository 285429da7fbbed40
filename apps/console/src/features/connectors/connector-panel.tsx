"use client";

import type { OutputOf } from "@fleet/contracts";
import type { listWorkspaceConnectors } from "@fleet/contracts/connectors/list-workspace-connectors";
import { Badge, type BadgeTone, ConfirmDialog, GuardedButton, RelativeTime } from "@fleet/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ActionProblem } from "../../components/query-problem.tsx";
import { useLacking } from "../../lib/access.ts";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { ApiKeyForm } from "./api-key-form.tsx";
import { ChannelRoutes } from "./channel-routes.tsx";
import "./connector-panel.css";

type Provider = OutputOf<typeof listWorkspaceConnectors>[number];

const statusWords: Record<string, { label: string; tone: BadgeTone }> = {
  connected: { label: "Connected", tone: "success" },
  reconnect_required: { label: "Reconnect required", tone: "warning" },
  not_connected: { label: "Not connected", tone: "neutral" },
};

/**
 * One provider in one workspace: its status, connect or reconnect (the vendor's consent page for a chat
 * provider, a key form for an API-key one), disconnect, and a chat provider's channel routes.
 */
export function ConnectorPanel({
  provider,
  workspace,
}: {
  provider: Provider;
  workspace: { id: string; name: string };
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const where = { workspace_id: workspace.id, provider: provider.id };
  const status = useQuery(trpc.connectors.get.queryOptions(where));
  const [confirming, setConfirming] = useState(false);
  // A member who may see connections but not change them (a Viewer, an Approver) is told which scope it takes.
  const cannotWrite = useLacking("connector:write");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.connectors.pathKey() });
  // The vendor's consent page: the browser goes there, and the vendor sends it back to this page.
  const connect = useMutation(
    trpc.connectors.connect.mutationOptions({
      onSuccess: (answer) => {
        if ("authorize_url" in answer) window.location.assign(answer.authorize_url);
      },
    }),
  );
  const disconnect = useMutation(
    trpc.connectors.delete.mutationOptions({
      onSuccess: async () => {
        setConfirming(false);
        await refresh();
      },
    }),
  );
  const state = status.data?.status;
  const words = state === undefined ? null : statusWords[state];
  const headingId = `connector-${provider.id}`;
  const chat = provider.archetype === "chat";
  const unconnected = state === "not_connected" || state === "reconnect_required";
  return (
    <section
      className="connector"
      aria-labelledby={headingId}
      data-provider={provider.id}
      data-status={state}
    >
      <header className="connector__head">
        <h3 id={headingId} className="connector__name">
          {provider.display_name}
        </h3>
        <span className="muted">{provider.archetype === "chat" ? "Chat" : "API key"}</span>
        {words ? <Badge tone={words.tone}>{words.label}</Badge> : <span className="muted">Checking…</span>}
      </header>
      {status.error ? <p className="muted">{problemOf(status.error).detail}</p> : null}
      {status.data?.team ? (
        <p className="connector__team">
          Team {status.data.team.name}
          {status.data.connected_at ? (
            <>
              {" "}
              · since <RelativeTime value={status.data.connected_at} />
            </>
          ) : null}
        </p>
      ) : null}
      {!provider.configured ? (
        <p className="muted">
          Not configured on this deployment: the operator sets the provider app&apos;s client id and secrets.
        </p>
      ) : null}
      {!chat && unconnected && cannotWrite ? (
        <p className="muted">
          Connecting {cannotWrite.charAt(0).toLowerCase()}
          {cannotWrite.slice(1)}
        </p>
      ) : null}
      {!chat && unconnected && !cannotWrite ? (
        <ApiKeyForm
          where={where}
          displayName={provider.display_name}
          reconnect={state === "reconnect_required"}
          onConnected={refresh}
        />
      ) : null}
      <div className="connector__actions">
        {chat && unconnected ? (
          <GuardedButton
            variant="primary"
            unavailable={provider.configured ? cannotWrite : "Not configured on this deployment."}
            pending={connect.isPending || connect.isSuccess}
            onClick={() => connect.mutate(where)}
          >
            {state === "reconnect_required"
              ? `Reconnect ${provider.display_name}`
              : `Connect ${provider.display_name}`}
          </GuardedButton>
        ) : null}
        {state === "connected" || state === "reconnect_required" ? (
          <GuardedButton unavailable={cannotWrite} onClick={() => setConfirming(true)}>
            Disconnect {provider.display_name}
          </GuardedButton>
        ) : null}
      </div>
      <ActionProblem action={connect} />
      {chat && state === "connected" ? <ChannelRoutes where={where} /> : null}
      <ConfirmDialog
        open={confirming}
        title={`Disconnect ${provider.display_name} from ${workspace.name}?`}
        confirmLabel={`Disconnect ${provider.display_name}`}
        tone="danger"
        pending={disconnect.isPending}
        problem={disconnect.error ? problemOf(disconnect.error) : null}
        onConfirm={() => disconnect.mutate(where)}
        onCancel={() => {
          disconnect.reset();
          setConfirming(false);
        }}
      >
        {chat
          ? "Its channel routes are removed: messages stop reaching fleets, answers and approval gates stop being posted. The app stays installed at the provider until removed there."
          : `The stored API key is deleted from this workspace. The key itself stays valid at ${provider.display_name} until revoked there.`}
      </ConfirmDialog>
    </section>
  );
}
