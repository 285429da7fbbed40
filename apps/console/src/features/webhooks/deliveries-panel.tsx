"use client";

import {
  Button,
  type Column,
  GuardedButton,
  PagedTable,
  ProblemAlert,
  RelativeTime,
  StatusBadge,
} from "@fleet/ui";
import { useRouter } from "next/navigation";
import { FilterForm, FilterSelect } from "../../components/filter-form.tsx";
import { Link } from "../../components/link.tsx";
import { ListLoading } from "../../components/query-problem.tsx";
import { countOf } from "../../lib/format.ts";
import { problemOf } from "../../lib/problem.ts";
import { attemptWords, type Delivery, deliveryStatusVariants, deliveryTypes } from "./delivery.ts";
import { type EndpointPosition, endpointHref } from "./urls.ts";
import type { useDeliveries } from "./use-deliveries.ts";
import "../../styles/card-parts.css";
import "../../styles/new-banner.css";
import "./deliveries.css";

const statusChoices = (["pending", "succeeded", "failed"] as const).map((status) => ({
  value: status,
  label: deliveryStatusVariants[status].label,
}));
const typeChoices = deliveryTypes.map((type) => ({ value: type, label: type }));

/**
 * The endpoint's delivery log, newest first: one row a delivery (one event to this endpoint), its last
 * attempt in words, Inspect (the delivery opens in a dialog, its id in the URL) and Retry. The filters
 * and the page live in the URL.
 */
export function DeliveriesPanel({
  position,
  list,
  shown,
  waiting,
  onShowNew,
  endpointName,
  cannotWrite,
  retrying,
  onRetry,
}: {
  position: EndpointPosition;
  list: ReturnType<typeof useDeliveries>;
  /** The page's deliveries the person has been shown; newer ones wait behind the banner. */
  shown: Delivery[];
  waiting: number;
  onShowNew: () => void;
  endpointName: string;
  cannotWrite: string | null;
  /** The delivery whose retry is on its way. */
  retrying: string | undefined;
  onRetry: (delivery: Delivery) => void;
}) {
  const router = useRouter();
  const { status, type, after } = position;
  const href = (patch: Partial<EndpointPosition>) => endpointHref({ ...position, ...patch });
  const filtered = Boolean(status || type);
  const unfiltered = { status: undefined, type: undefined, after: undefined, delivery: undefined };

  const columns: Column<Delivery>[] = [
    {
      // Type and status share the first column, so a phone sees both without scrolling sideways.
      id: "delivery",
      header: "Delivery",
      rowHeader: true,
      cell: (delivery) => (
        <span className="delivery-what">
          <span className="delivery-what__line">
            <code>{delivery.type}</code>
            <StatusBadge status={delivery.status} variants={deliveryStatusVariants} />
          </span>
          <span className="delivery-what__resource">{delivery.resource}</span>
        </span>
      ),
    },
    {
      id: "attempts",
      header: "Attempts",
      width: "number",
      align: "end",
      cell: (delivery) => <span className="numeric">{delivery.attempt_count}</span>,
    },
    {
      id: "last",
      header: "Last attempt",
      cell: (delivery) => {
        const last = delivery.attempts[0];
        return last ? (
          <span className="delivery-last" data-outcome={last.status_code ?? last.error ?? undefined}>
            {attemptWords(last)}
          </span>
        ) : (
          <span className="muted">Not tried yet</span>
        );
      },
    },
    {
      id: "created",
      header: "Created",
      width: "time",
      cell: (delivery) => <RelativeTime value={delivery.created_at} />,
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      width: "wide-actions",
      align: "end",
      cell: (delivery) => (
        <span className="ui-table-actions">
          <Link
            className="ui-button ui-button--secondary ui-button--sm"
            href={href({ delivery: delivery.id })}
            scroll={false}
            aria-label={`Inspect ${delivery.type} delivery ${delivery.id}`}
          >
            Inspect
          </Link>
          <GuardedButton
            size="sm"
            aria-label={`Retry ${delivery.type} delivery ${delivery.id}`}
            unavailable={cannotWrite}
            pending={retrying === delivery.id}
            onClick={() => onRetry(delivery)}
          >
            Retry
          </GuardedButton>
        </span>
      ),
    },
  ];

  return (
    <section className="card deliveries" aria-labelledby="deliveries-heading">
      <header className="card__header">
        <h2 id="deliveries-heading" className="card__title">
          Delivery log
        </h2>
      </header>
      <div className="deliveries__toolbar">
        <FilterForm
          label="Filter deliveries"
          clearHref={filtered ? href(unfiltered) : undefined}
          check={(read) => {
            router.push(
              href({
                status: read("status") || undefined,
                type: read("type") || undefined,
                after: undefined,
              }),
            );
            return {};
          }}
        >
          {() => (
            <>
              <FilterSelect
                name="status"
                label="Status"
                value={status ?? ""}
                anyLabel="Any status"
                choices={statusChoices}
              />
              <FilterSelect
                name="type"
                label="Type"
                value={type ?? ""}
                anyLabel="Any type"
                choices={typeChoices}
              />
            </>
          )}
        </FilterForm>
      </div>
      {waiting > 0 ? (
        <div className="new-banner">
          <Button size="sm" variant="primary" onClick={onShowNew}>
            Show {countOf(waiting, "new delivery", "new deliveries")}
          </Button>
        </div>
      ) : null}
      {list.error && list.data === undefined ? (
        // A failed log shows why, never an empty one.
        <div className="card__body">
          <ProblemAlert problem={problemOf(list.error)}>
            {after || filtered ? (
              <Link className="ui-button ui-button--secondary ui-button--sm" href={href(unfiltered)}>
                Show the latest deliveries, unfiltered
              </Link>
            ) : null}
          </ProblemAlert>
        </div>
      ) : list.data === undefined ? (
        <ListLoading>Loading deliveries…</ListLoading>
      ) : shown.length === 0 ? (
        <div className="empty-state empty-state--compact">
          <p className="empty-state__title">
            {after
              ? "No older deliveries"
              : filtered
                ? "No deliveries match the filters"
                : "No deliveries yet"}
          </p>
          <p className="empty-state__text">
            {after
              ? "This page is past the oldest delivery."
              : filtered
                ? "Widen the filters or clear them to see every delivery."
                : "Each event this endpoint subscribes to becomes a delivery here. Send a test to see one now."}
          </p>
        </div>
      ) : (
        <PagedTable
          caption={`Deliveries to ${endpointName}, newest first`}
          columns={columns}
          rows={shown}
          rowKey={(delivery) => delivery.id}
          rowData={(delivery) => ({ "data-delivery-id": delivery.id, "data-status": delivery.status })}
          busy={list.isPlaceholderData}
          link={Link}
          pager={
            after || list.data.next_cursor
              ? {
                  label: "Pages of deliveries",
                  summary: `${shown.length} shown · newest first`,
                  firstHref: after ? href({ after: undefined, delivery: undefined }) : undefined,
                  nextHref: list.data.next_cursor
                    ? href({ after: list.data.next_cursor, delivery: undefined })
                    : undefined,
                }
              : undefined
          }
        />
      )}
    </section>
  );
}
