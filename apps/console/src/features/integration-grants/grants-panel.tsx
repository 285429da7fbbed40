"use client";

import type { GrantStatus } from "@fleet/contracts/integration-grants/integration-grant";
import {
  type Column,
  ConfirmDialog,
  GuardedButton,
  PagedTable,
  RelativeTime,
  StatusBadge,
  type StatusVariant,
} from "@fleet/ui";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { DoneStatus } from "../../components/done-status.tsx";
import { EntityName } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import { ListLoading, ListProblem } from "../../components/query-problem.tsx";
import type { FleetView } from "../../lib/fleet-status.ts";
import { problemOf } from "../../lib/problem.ts";
import { type RouterOutputs, useTRPC } from "../../lib/trpc.ts";
import { approvalsHref, type FleetPosition, fleetHref } from "../../lib/urls.ts";
import "../../styles/card-parts.css";
import "./grants-panel.css";

type Grant = RouterOutputs["integrationGrants"]["list"]["items"][number];

const grantStatusVariants: Record<GrantStatus, StatusVariant> = {
  pending: { label: "Pending", tone: "warning" },
  approved: { label: "Approved", tone: "success" },
  revoked: { label: "Revoked", tone: "neutral" },
};

/**
 * The services the fleet asked to use, newest first: each grant's status, why the fleet asked, who
 * decided and when, a way to the inbox for a pending one, and revoke. The page lives in the URL.
 */
export function GrantsPanel({ fleet, position }: { fleet: FleetView; position: FleetPosition }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const after = position.grantsAfter;
  const list = useQuery(
    trpc.integrationGrants.list.queryOptions(
      {
        workspace_id: position.workspaceId,
        fleet_id: position.fleetId,
        ...(after ? { starting_after: after } : {}),
      },
      { placeholderData: keepPreviousData, refetchOnWindowFocus: "always" },
    ),
  );
  const [revoking, setRevoking] = useState<Grant | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.integrationGrants.revoke.mutationOptions({
      onSuccess: async (grant) => {
        setDone(`Revoked ${grant.service}.`);
        setRevoking(null);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.integrationGrants.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.approvals.pathKey() }),
        ]);
      },
    }),
  );
  const href = (patch: Partial<FleetPosition>) => fleetHref({ ...position, ...patch });

  const columns: Column<Grant>[] = [
    {
      id: "service",
      header: "Service",
      rowHeader: true,
      cell: (grant) => <code className="grant-service">{grant.service}</code>,
    },
    {
      id: "status",
      header: "Status",
      width: "status",
      cell: (grant) => <StatusBadge status={grant.status} variants={grantStatusVariants} />,
    },
    {
      id: "reason",
      header: "Why the fleet asked",
      cell: (grant) => (
        <p className="grant-reason" dir="auto">
          {grant.reason}
        </p>
      ),
    },
    {
      id: "decided",
      header: "Decided",
      cell: (grant) =>
        grant.decided_at !== null ? (
          <span className="grant-decided">
            <RelativeTime value={grant.decided_at} />
            {grant.decided_by ? (
              <EntityName
                principal={grant.decided_by}
                workspaceId={position.workspaceId}
                fleetId={position.fleetId}
              />
            ) : null}
          </span>
        ) : (
          <span className="muted">
            Asked <RelativeTime value={grant.requested_at} />
          </span>
        ),
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "wide-actions",
      align: "end",
      cell: (grant) => (
        <span className="ui-table-actions">
          {grant.status === "pending" && grant.gate_id ? (
            <Link
              className="ui-button ui-button--secondary ui-button--sm"
              href={approvalsHref({
                workspaceId: position.workspaceId,
                status: "pending",
                gate: grant.gate_id,
              })}
            >
              Answer
              <span className="ui-visually-hidden"> the request for {grant.service}</span>
            </Link>
          ) : null}
          <GuardedButton
            size="sm"
            aria-label={`Revoke grant ${grant.service}`}
            unavailable={grant.status === "revoked" ? "Already revoked; the fleet may ask again." : null}
            onClick={() => {
              setDone(null);
              revoke.reset();
              setRevoking(grant);
            }}
          >
            Revoke
          </GuardedButton>
        </span>
      ),
    },
  ];

  return (
    <div className="grants">
      <div className="grants__toolbar">
        <p className="grants__intro">
          The services {fleet.name} asked to use. A request is answered in the approvals inbox; revoking takes
          the service away at once.
        </p>
        <DoneStatus done={done} />
      </div>
      {list.error && list.data === undefined ? (
        <ListProblem query={list} />
      ) : list.data === undefined ? (
        <ListLoading>Loading grants…</ListLoading>
      ) : list.data.items.length === 0 ? (
        <div className="empty-state empty-state--compact">
          <p className="empty-state__title">{after ? "No more grants" : "No integration grants"}</p>
          <p className="empty-state__text">
            {after
              ? "This page is past the oldest grant."
              : "When the fleet asks to use a service (GitHub, Slack), its request appears here and in the approvals inbox."}
          </p>
        </div>
      ) : (
        <PagedTable
          caption={`Integration grants of ${fleet.name}, newest first`}
          columns={columns}
          rows={list.data.items}
          rowKey={(grant) => grant.grant_id}
          rowData={(grant) => ({ "data-status": grant.status, "data-service": grant.service })}
          busy={list.isPlaceholderData}
          link={Link}
          pager={
            after || list.data.next_cursor
              ? {
                  label: "Pages of grants",
                  summary: `${list.data.items.length} shown · newest first`,
                  firstHref: after ? href({ grantsAfter: undefined }) : undefined,
                  nextHref: list.data.next_cursor ? href({ grantsAfter: list.data.next_cursor }) : undefined,
                }
              : undefined
          }
        />
      )}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.service ?? ""} for ${fleet.name}?`}
        confirmLabel="Revoke grant"
        pending={revoke.isPending}
        problem={revoke.error ? problemOf(revoke.error) : null}
        onCancel={() => setRevoking(null)}
        onConfirm={() =>
          revoking &&
          revoke.mutate({
            workspace_id: position.workspaceId,
            fleet_id: position.fleetId,
            grant_id: revoking.grant_id,
          })
        }
      >
        <p className="dialog-text">
          {fleet.name} can no longer use <strong>{revoking?.service}</strong>
          {revoking?.status === "pending" ? "; its open request in the approvals inbox is denied" : ""}. The
          fleet may ask again, which needs a new approval.
        </p>
      </ConfirmDialog>
    </div>
  );
}
