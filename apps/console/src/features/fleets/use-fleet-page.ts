"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../lib/trpc.ts";
import { type FleetPosition, fleetsHref } from "../../lib/urls.ts";
import type { ConfirmedAction } from "./fleet-action-dialogs.tsx";
import { useFleetStatusChange, usePendingFleetIds } from "./use-fleet-status.ts";

const FLEET_POLL_MS = 15_000;

/**
 * A fleet page's fleet and what its header does with it: the fleet, polled; the status moves (optimistic)
 * and the move waiting for its confirmation; the way back to the list.
 */
export function useFleetPage(position: FleetPosition) {
  const trpc = useTRPC();
  const move = useFleetStatusChange();
  const pending = usePendingFleetIds();
  const query = useQuery(
    trpc.fleets.get.queryOptions(
      { workspace_id: position.workspaceId, fleet_id: position.fleetId },
      // Runners move the counters and other people the status: keep the header roughly current, but not
      // while a move of this page's is on its way (a poll would briefly undo its optimistic status).
      { refetchInterval: pending.has(position.fleetId) ? false : FLEET_POLL_MS },
    ),
  );
  const [confirming, setConfirming] = useState<ConfirmedAction>(null);
  return { query, move, pending, confirming, setConfirming, back: fleetsHref(position.workspaceId) };
}
