"use client";

import { ProblemAlert, RelativeTime, Skeleton, StatusBadge } from "@fleet/ui";
import type { ReactNode } from "react";
import { Link } from "../../components/link.tsx";
import { QueryProblem, type QueryProblemProps } from "../../components/query-problem.tsx";
import { type FleetView, fleetStatusVariants } from "../../lib/fleet-status.ts";
import { countOf, formatCost } from "../../lib/format.ts";
import { fleetsHref } from "../../lib/urls.ts";
import "../../styles/detail-page.css";

/** A fleet page's breadcrumb and header: the fleet's name and status, its times and counters, its actions. */
export function FleetHeader({
  fleet,
  back,
  pending,
  actions,
}: {
  fleet: FleetView;
  /** The fleets list the breadcrumb leads back to. */
  back: string;
  /** A status move of the fleet is on its way. */
  pending: boolean;
  actions: ReactNode;
}) {
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          <li>
            <Link href={back}>Fleets</Link>
          </li>
          <li aria-current="page">{fleet.name}</li>
        </ol>
      </nav>
      <header className="page-header fleet-header">
        <div>
          <div className="fleet-header__title">
            <h1 className="page-header__title">{fleet.name}</h1>
            <StatusBadge status={fleet.status} variants={fleetStatusVariants} pending={pending} />
          </div>
          <p className="fleet-header__meta">
            <span>
              Installed <RelativeTime value={fleet.created_at} />
            </span>
            <span>
              Updated <RelativeTime value={fleet.updated_at} />
            </span>
            <span>{countOf(fleet.events_processed, "event")} processed</span>
            <span>{formatCost(fleet.budget_used_nanos)} spent</span>
          </p>
        </div>
        <div className="page-header__actions">{actions}</div>
      </header>
    </>
  );
}

/**
 * A fleet page without its workspace in the address whose fleet the API could not place: unknown, deleted,
 * another account's, or not readable with the person's scopes (all alike, as the API answers them).
 */
export function FleetWithoutWorkspace() {
  return (
    <div className="page">
      <ProblemAlert
        problem={{
          title: "Fleet not found",
          detail:
            "No fleet with this id that you can open: it may have been deleted, belong to another account, or need the fleet:read scope. Open a fleet from the Fleets list.",
        }}
      >
        <Link className="ui-button ui-button--secondary ui-button--sm" href={fleetsHref()}>
          Go to Fleets
        </Link>
      </ProblemAlert>
    </div>
  );
}

/** A fleet page whose fleet could not be read: why, and the way back to the list. */
export function FleetProblem({ query, back }: { query: QueryProblemProps["query"]; back: string }) {
  return (
    <div className="page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href={back}>Fleets</Link>
      </nav>
      <QueryProblem query={query}>
        <Link className="ui-button ui-button--secondary ui-button--sm" href={back}>
          Back to Fleets
        </Link>
      </QueryProblem>
    </div>
  );
}

/** A fleet page while its fleet loads. */
export function FleetLoading() {
  return (
    <div className="page">
      <Skeleton label="Loading the fleet…" shape="page" />
    </div>
  );
}
