"use client";

import { skipToken, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceInView } from "../../lib/use-workspace.ts";
import { serviceDisabled } from "./health.ts";

/** The Webhooks page's own list query (all of a workspace's endpoints: at most 50), so the cache is shared. */
const ALL = 100;
const POLL_MS = 30_000;

/**
 * How many endpoints of the workspace in view the service disabled (a 410, or failing for days), for the
 * navigation: polled every 30 s and on focus, and refreshed at once when this console changes an endpoint.
 */
export function useDisabledEndpointCount(): number | null {
  const trpc = useTRPC();
  const workspaceId = useWorkspaceInView();
  const list = useQuery(
    trpc.webhookEndpoints.list.queryOptions(
      workspaceId ? { workspace_id: workspaceId, limit: ALL } : skipToken,
      {
        refetchInterval: POLL_MS,
        refetchIntervalInBackground: false,
        refetchOnWindowFocus: "always",
      },
    ),
  );
  return list.data ? serviceDisabled(list.data.items).length : null;
}

/**
 * "1" in amber beside Webhooks in the navigation while an endpoint the service disabled waits for its
 * owner; nothing otherwise. Mounted only for people who may read webhooks (the navigation shows the badge
 * of an open page only).
 */
export function DisabledEndpointsBadge() {
  const count = useDisabledEndpointCount();
  if (count === null || count === 0) return null;
  return (
    <span className="nav__count" data-urgent data-count={count}>
      <span aria-hidden="true">{count}</span>
      <span className="ui-visually-hidden">
        , {count} {count === 1 ? "endpoint" : "endpoints"} disabled by the service
      </span>
    </span>
  );
}
