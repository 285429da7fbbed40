"use client";

import type { CliCredentialItem } from "@fleet/contracts";
import { Badge, Button, type Column, ConfirmDialog, PagedTable, RelativeTime } from "@fleet/ui";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "../../components/link.tsx";
import { ListLoading, ListProblem } from "../../components/query-problem.tsx";
import { pollInterval } from "../../lib/poll.ts";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import "../../styles/device-card.css";

const label = (credential: CliCredentialItem) =>
  credential.client_host ? `${credential.client_name} on ${credential.client_host}` : credential.client_name;

/**
 * The signed-in person's command-line credentials that have not expired, with revoke. The list is asked
 * again every few seconds while the page is shown: a sign-in approved above becomes a credential only
 * when its terminal next polls, and no stream says so.
 */
export function CliCredentialsPanel() {
  const trpc = useTRPC();
  const list = useQuery(
    trpc.cliCredentials.list.queryOptions(
      { limit: 100 },
      { refetchInterval: pollInterval, refetchIntervalInBackground: false },
    ),
  );
  const [revoking, setRevoking] = useState<CliCredentialItem | null>(null);
  const columns: Column<CliCredentialItem>[] = [
    {
      id: "client",
      header: "Client",
      rowHeader: true,
      cell: (credential) => label(credential),
    },
    {
      id: "status",
      header: "Status",
      width: "status",
      cell: (credential) =>
        credential.revoked_at !== null ? (
          <Badge tone="neutral">Revoked</Badge>
        ) : (
          <Badge tone="success">Active</Badge>
        ),
    },
    {
      id: "created",
      header: "Signed in",
      width: "time",
      cell: (credential) => <RelativeTime value={credential.created_at} />,
    },
    {
      id: "expires",
      header: "Expires",
      width: "time",
      cell: (credential) => <RelativeTime value={credential.expires_at} />,
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "actions",
      align: "end",
      cell: (credential) =>
        credential.revoked_at === null ? (
          <Button
            size="sm"
            aria-label={`Revoke command-line credential ${label(credential)}`}
            onClick={() => setRevoking(credential)}
          >
            Revoke
          </Button>
        ) : null,
    },
  ];
  return (
    <section className="card device-card" aria-labelledby="cli-credentials-heading">
      <h2 id="cli-credentials-heading" className="device-card__heading">
        Your command-line sign-ins
      </h2>
      <p className="muted device-card__note">
        Each approved sign-in holds a credential until it expires. Revoke one you no longer use, or do not
        recognise: it is refused at once.
      </p>
      {list.error ? (
        <ListProblem query={list} />
      ) : list.data === undefined ? (
        <ListLoading>Loading your command-line sign-ins…</ListLoading>
      ) : list.data.items.length === 0 ? (
        <p className="muted">No command-line sign-ins yet.</p>
      ) : (
        <PagedTable
          caption="Your command-line credentials, newest first"
          columns={columns}
          rows={list.data.items}
          rowKey={(credential) => credential.id}
          rowData={(credential) => ({
            "data-credential-id": credential.id,
            "data-state": credential.revoked_at === null ? "active" : "revoked",
          })}
          busy={false}
          link={Link}
        />
      )}
      {revoking ? <RevokeDialog credential={revoking} onClose={() => setRevoking(null)} /> : null}
    </section>
  );
}

function RevokeDialog({ credential, onClose }: { credential: CliCredentialItem; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.cliCredentials.revoke.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.cliCredentials.list.pathKey() });
        onClose();
      },
    }),
  );
  return (
    <ConfirmDialog
      open
      title={`Revoke ${label(credential)}?`}
      confirmLabel="Revoke credential"
      pending={revoke.isPending}
      problem={revoke.error ? problemOf(revoke.error) : null}
      onCancel={onClose}
      onConfirm={() => revoke.mutate({ credential_id: credential.id })}
    >
      <p className="dialog-text">
        Requests with this credential fail at once, on every instance, and its live tails end. The terminal
        must sign in again with <code>fleetctl login</code>.
      </p>
    </ConfirmDialog>
  );
}
