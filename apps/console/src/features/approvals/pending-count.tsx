"use client";

import { skipToken, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";
import { useWorkspaceInView } from "../../lib/use-workspace.ts";
import { urgency } from "./time-left.ts";

/**
 * The badge counts up to this many pending gates and says "20+" beyond. The API has no count, so the badge
 * reads the first page of the pending inbox, kept small because every item carries its evidence.
 */
const COUNTED = 20;
const POLL_MS = 15_000;

/**
 * The pending gates of the workspace in view (the URL's, else the tenant's first), for the navigation:
 * polled every 15 s and on focus, and refreshed at once when this console answers a gate.
 */
export function usePendingCount(): { count: number; more: boolean; urgent: boolean } | null {
  const trpc = useTRPC();
  const workspaceId = useWorkspaceInView();
  const pending = useQuery(
    trpc.approvals.list.queryOptions(
      workspaceId ? { workspace_id: workspaceId, status: "pending", limit: COUNTED } : skipToken,
      { refetchInterval: POLL_MS, refetchIntervalInBackground: false, refetchOnWindowFocus: "always" },
    ),
  );
  if (!pending.data) return null;
  const now = Date.now();
  return {
    count: pending.data.items.length,
    more: pending.data.next_cursor !== null,
    urgent: pending.data.items.some((gate) => urgency(gate.requested_at, gate.timeout_at, now) !== "ok"),
  };
}

/** "3 pending" beside Approvals in the navigation; nothing when none waits or the count cannot be read. */
export function PendingBadge() {
  const pending = usePendingCount();
  if (!pending || pending.count === 0) return null;
  const shown = `${pending.count}${pending.more ? "+" : ""}`;
  return (
    <span className="nav__count" data-urgent={pending.urgent || undefined} data-count={shown}>
      <span aria-hidden="true">{shown}</span>
      <span className="ui-visually-hidden">
        , {shown} pending{pending.urgent ? ", some near their deadline" : ""}
      </span>
    </span>
  );
}
