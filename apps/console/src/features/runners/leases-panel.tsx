"use client";

import { type Column, PagedTable, RelativeTime, StatusBadge } from "@fleet/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Link } from "../../components/link.tsx";
import { ListLoading, ListProblem } from "../../components/query-problem.tsx";
import { formatCount } from "../../lib/format.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { type RunnerPosition, runnerHref } from "../../lib/urls.ts";
import { LeaseDialog } from "./lease-dialog.tsx";
import { type LeaseItem, leaseOutcomeVariants, leaseSentence } from "./status.ts";
import "../../styles/card-parts.css";
import "../../styles/inline.css";
import "./leases-panel.css";

const PAGE_SIZE = 20;
const POLL_MS = 10_000;

/** Running leases first (what the runner is doing now), then the rest newest first, as the API lists them. */
export function runningFirst(leases: readonly LeaseItem[]): LeaseItem[] {
  return [
    ...leases.filter((lease) => lease.outcome === "running"),
    ...leases.filter((lease) => lease.outcome !== "running"),
  ];
}

function tokens(lease: LeaseItem): string | null {
  if (lease.input_tokens === null && lease.output_tokens === null) return null;
  return `${formatCount(lease.input_tokens ?? 0)} in · ${formatCount(lease.output_tokens ?? 0)} out`;
}

/** The runner's leases with running ones first, each reviewable; the page and the lease open in the URL. */
export function LeasesPanel({ position, host }: { position: RunnerPosition; host: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { runnerId, leasesAfter } = position;
  const list = useQuery(
    trpc.runners.listLeases.queryOptions(
      { id: runnerId, limit: PAGE_SIZE, ...(leasesAfter ? { starting_after: leasesAfter } : {}) },
      { placeholderData: keepPreviousData, refetchInterval: leasesAfter ? false : POLL_MS },
    ),
  );
  const href = (patch: Partial<RunnerPosition>) => runnerHref({ ...position, ...patch });
  const items = list.data ? runningFirst(list.data.items) : undefined;

  const columns: Column<LeaseItem>[] = [
    {
      id: "fleet",
      header: "Fleet",
      rowHeader: true,
      cell: (lease) =>
        lease.fleet_name ? (
          <span className="lease-fleet">{lease.fleet_name}</span>
        ) : (
          <span className="muted">
            Deleted fleet <code>{lease.fleet_id.slice(0, 8)}…</code>
          </span>
        ),
    },
    {
      id: "outcome",
      header: "Outcome",
      width: "status",
      cell: (lease) => <StatusBadge status={lease.outcome} variants={leaseOutcomeVariants} />,
    },
    {
      id: "what",
      header: "What happened",
      cell: (lease) => <p className="lease-sentence">{leaseSentence(lease)}</p>,
    },
    {
      id: "started",
      header: "Started",
      width: "time",
      cell: (lease) => <RelativeTime value={lease.created_at} />,
    },
    {
      id: "tokens",
      header: "Tokens",
      width: "number",
      align: "end",
      cell: (lease) => <span className="numeric">{tokens(lease) ?? <span className="muted">—</span>}</span>,
    },
    {
      id: "review",
      header: "Review",
      headerHidden: true,
      width: "actions",
      align: "end",
      cell: (lease) => (
        <Link
          className="ui-button ui-button--secondary ui-button--sm"
          href={href({ lease: lease.lease_id })}
          scroll={false}
          aria-label={`Review lease of ${lease.fleet_name ?? "a deleted fleet"} started ${new Date(lease.created_at).toISOString()}`}
        >
          Review
        </Link>
      ),
    },
  ];

  return (
    <section className="card" aria-labelledby="leases-heading">
      <header className="card__header">
        <h2 id="leases-heading" className="card__title">
          Leases
        </h2>
      </header>
      {list.error && !list.isPlaceholderData ? (
        <ListProblem query={list} retry="always" />
      ) : items === undefined ? (
        <ListLoading>Loading leases…</ListLoading>
      ) : items.length === 0 ? (
        <div className="empty-state empty-state--compact">
          <p className="empty-state__title">{leasesAfter ? "No more leases" : "No leases yet"}</p>
          <p className="empty-state__text">
            {leasesAfter
              ? "This page is past the oldest lease."
              : `Each piece of fleet work ${host} takes shows here, with how it ended.`}
          </p>
        </div>
      ) : (
        <PagedTable
          caption={`Leases of runner ${host}, running first, then newest first`}
          columns={columns}
          rows={items}
          rowKey={(lease) => lease.lease_id}
          rowData={(lease) => ({ "data-lease-id": lease.lease_id, "data-outcome": lease.outcome })}
          busy={list.isPlaceholderData}
          pager={
            leasesAfter || list.data?.next_cursor
              ? {
                  label: "Pages of leases",
                  summary: `${items.length} shown`,
                  firstHref: leasesAfter ? href({ leasesAfter: undefined, lease: undefined }) : undefined,
                  nextHref: list.data?.next_cursor
                    ? href({ leasesAfter: list.data.next_cursor, lease: undefined })
                    : undefined,
                  link: Link,
                }
              : undefined
          }
        />
      )}
      <LeaseDialog
        leaseId={position.lease}
        lease={items?.find((lease) => lease.lease_id === position.lease)}
        runnerId={runnerId}
        loading={items === undefined && !list.error}
        onClose={() => router.replace(href({ lease: undefined }), { scroll: false })}
      />
    </section>
  );
}
