"use client";

import { ProblemAlert, Skeleton } from "@fleet/ui";
import { skipToken, useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { Link } from "../../components/link.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { runHref } from "../../lib/urls.ts";
import { UUID } from "../../lib/uuid.ts";
import { eventsHref } from "./events-view.tsx";

/**
 * Finds a run's fleet and workspace from its event id (`ids.resolve`) and replaces the address with the
 * run's page, keeping every other parameter; an id the API cannot place for this person says so.
 */
export function RunById({ eventId }: { eventId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const search = useSearchParams();
  const asked = UUID.test(eventId);
  const place = useQuery(
    trpc.ids.resolve.queryOptions(asked ? { id: eventId } : skipToken, {
      staleTime: Number.POSITIVE_INFINITY,
    }),
  );
  const run = place.data?.kind === "event" ? place.data : undefined;
  const target = run
    ? runHref({ workspaceId: run.workspace_id, fleetId: run.fleet_id, eventId: run.id })
    : undefined;
  useEffect(() => {
    if (target === undefined) return;
    const url = new URL(target, window.location.origin);
    for (const [name, value] of search) if (!url.searchParams.has(name)) url.searchParams.append(name, value);
    router.replace(`${url.pathname}${url.search}`, { scroll: false });
  }, [target, search, router]);
  const missing = !asked || place.isError || (place.data !== undefined && run === undefined);
  if (!missing)
    return (
      <div className="page">
        <Skeleton label="Finding the run…" shape="page" />
      </div>
    );
  return (
    <div className="page">
      <ProblemAlert
        problem={{
          title: "Run not found",
          detail:
            "No run with this id that you can open: it may belong to another account, or need the fleet:read scope. Runs are listed on the Events page.",
        }}
      >
        <Link className="ui-button ui-button--secondary ui-button--sm" href={eventsHref()}>
          Go to Events
        </Link>
      </ProblemAlert>
    </div>
  );
}
