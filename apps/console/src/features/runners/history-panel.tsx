"use client";

import { runnerEventTypes } from "@fleet/contracts";
import { CursorPager, RelativeTime } from "@fleet/ui";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ReactNode, useOptimistic, useTransition } from "react";
import { EntityName } from "../../components/entity-name.tsx";
import { Link } from "../../components/link.tsx";
import { ListBody } from "../../components/list-body.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { type RunnerPosition, runnerHref } from "../../lib/urls.ts";
import {
  eventTypeLabels,
  humanize,
  networkLabels,
  type RunnerEventItem,
  type RunnerEventType,
  tierLabels,
} from "./status.ts";
import "../../styles/card-parts.css";
import "./history-panel.css";

const PAGE_SIZE = 25;

const short = (id: unknown) => (typeof id === "string" ? `${id.slice(0, 8)}…` : "?");
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** What an entry's detail says, in words; the API keeps it as a small JSON object per type. */
export function describeDetail(event: RunnerEventItem): ReactNode {
  const detail = event.detail;
  switch (event.event_type) {
    case "runner_registered":
      return text(detail.host_id) ? `As host ${detail.host_id}.` : null;
    case "runner_policy_assigned": {
      const policy = detail.assigned_policy as
        | {
            sandbox_tier?: keyof typeof tierLabels;
            network_policy?: keyof typeof networkLabels;
            worker_count?: number;
          }
        | undefined;
      if (!policy) return null;
      const parts = [
        policy.sandbox_tier ? tierLabels[policy.sandbox_tier] : null,
        policy.network_policy ? networkLabels[policy.network_policy].toLowerCase() : null,
        policy.worker_count === undefined
          ? null
          : `${policy.worker_count} ${policy.worker_count === 1 ? "worker" : "workers"}`,
      ].filter(Boolean);
      const verdict =
        detail.degraded === true
          ? ` Degraded: ${text(detail.degraded_reason) ?? "no reason given"}.`
          : detail.degraded === false
            ? " The host meets it."
            : "";
      return `${parts.join(", ")}.${verdict}`;
    }
    case "runner_online":
      return detail.degraded === true
        ? `Degraded: ${text(detail.degraded_reason) ?? "no reason given"}.`
        : null;
    case "lease_acquired":
      return (
        <>
          Lease {short(detail.lease_id)} of{" "}
          {typeof detail.fleet_id === "string" ? (
            <EntityName
              kind="fleet"
              id={detail.fleet_id}
              knownName={event.fleet_name}
              // The fleet is some tenant's: the operator plane has no page of it to open.
              link={false}
            />
          ) : (
            "a fleet"
          )}
          , fencing token {String(detail.fencing_token ?? "?")}.
        </>
      );
    case "lease_released":
      return `Lease ${short(detail.lease_id)} ${text(detail.outcome) ? humanize(text(detail.outcome)!) : "ended"}.`;
    default:
      return null;
  }
}

/**
 * The runner's history, newest first, filtered by a set of event types (any of them). The set and the page
 * live in the URL; ticking a type applies at once.
 */
export function HistoryPanel({ position }: { position: RunnerPosition }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { runnerId, types = [], historyAfter } = position;
  const list = useQuery(
    trpc.runners.listEvents.queryOptions(
      {
        id: runnerId,
        limit: PAGE_SIZE,
        ...(types.length > 0 ? { event_type: types.join(",") } : {}),
        ...(historyAfter ? { starting_after: historyAfter } : {}),
      },
      { placeholderData: keepPreviousData },
    ),
  );
  const href = (patch: Partial<RunnerPosition>) => runnerHref({ ...position, ...patch });
  // The boxes follow a click at once; the URL (and the list) catch up when the navigation lands.
  const [, startTransition] = useTransition();
  const [ticked, setTicked] = useOptimistic<readonly RunnerEventType[]>(types);
  const toggle = (type: RunnerEventType, on: boolean) => {
    const next = runnerEventTypes.filter((candidate) =>
      candidate === type ? on : ticked.includes(candidate),
    );
    startTransition(() => {
      setTicked(next);
      router.replace(href({ types: next, historyAfter: undefined }), { scroll: false });
    });
  };

  return (
    <section className="card" aria-labelledby="history-heading">
      <header className="card__header">
        <h2 id="history-heading" className="card__title">
          History
        </h2>
      </header>
      <fieldset className="history-filter">
        <legend className="ui-label">Show event types</legend>
        <div className="history-filter__options">
          {runnerEventTypes.map((type) => (
            <label key={type} className="history-filter__option">
              <input
                type="checkbox"
                name="event_type"
                value={type}
                checked={ticked.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />
              {eventTypeLabels[type]}
            </label>
          ))}
        </div>
        {types.length > 0 ? (
          <Link
            className="ui-button ui-button--ghost ui-button--sm"
            href={href({ types: [], historyAfter: undefined })}
            scroll={false}
          >
            Show every type
          </Link>
        ) : (
          <p className="ui-hint">Every type is shown; tick some to see only those.</p>
        )}
      </fieldset>
      <ListBody list={list} loading="Loading the history…" retry="always">
        {(data) =>
          data.items.length === 0 ? (
            <div className="empty-state empty-state--compact">
              <p className="empty-state__title">
                {historyAfter ? "No older entries" : "Nothing of these types yet"}
              </p>
            </div>
          ) : (
            <ol
              className="history"
              aria-label="Runner history, newest first"
              aria-busy={list.isPlaceholderData || undefined}
            >
              {data.items.map((event) => {
                const detail = describeDetail(event);
                return (
                  <li key={event.id} className="history__item" data-event-type={event.event_type}>
                    <span className="history__when">
                      <RelativeTime value={event.created_at} />
                    </span>
                    <span className="history__what">
                      <strong>{eventTypeLabels[event.event_type]}</strong>
                      {detail ? <span className="history__detail">{detail}</span> : null}
                    </span>
                  </li>
                );
              })}
            </ol>
          )
        }
      </ListBody>
      {list.data && (historyAfter || list.data.next_cursor) ? (
        <CursorPager
          label="Pages of history"
          summary={`${list.data.items.length} shown · newest first`}
          firstHref={historyAfter ? href({ historyAfter: undefined }) : undefined}
          nextHref={list.data.next_cursor ? href({ historyAfter: list.data.next_cursor }) : undefined}
          link={Link}
        />
      ) : null}
    </section>
  );
}
