"use client";

import type { FleetStatus } from "@fleet/contracts";
import { type QueryKey, useMutation, useMutationState, useQueryClient } from "@tanstack/react-query";
import { statusOf } from "../../lib/problem.ts";
import { type RouterOutputs, useTRPC } from "../../lib/trpc.ts";

type FleetPage = RouterOutputs["fleets"]["list"];
type Fleet = RouterOutputs["fleets"]["get"];

export type StatusChange = {
  workspace_id: string;
  fleet_id: string;
  status: Exclude<FleetStatus, "installing">;
  /** The version the person saw, when the page has it: a stale one answers 412 instead of moving it. */
  if_match?: string;
};

interface Snapshot {
  lists: [QueryKey, FleetPage | undefined][];
  fleet: Fleet | undefined;
}

/**
 * Moves a fleet to a status optimistically: every cached list and the fleet's own page show the new status
 * at once, and go back if the API refuses. A refusal because the fleet changed meanwhile (409 its state
 * forbids the move, 412 a stale version) refetches, so the page shows what is true now beside the problem.
 */
export function useFleetStatusChange() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const lists = trpc.fleets.list.pathKey();
  const fleetKey = (change: Pick<StatusChange, "workspace_id" | "fleet_id">) =>
    trpc.fleets.get.queryKey({ workspace_id: change.workspace_id, fleet_id: change.fleet_id });

  const mutation = useMutation(
    trpc.fleets.update.mutationOptions({
      onMutate: async (input): Promise<Snapshot> => {
        const change = input as StatusChange;
        await Promise.all([
          queryClient.cancelQueries({ queryKey: lists }),
          queryClient.cancelQueries({ queryKey: fleetKey(change) }),
        ]);
        const snapshot: Snapshot = {
          lists: queryClient.getQueriesData<FleetPage>({ queryKey: lists }),
          fleet: queryClient.getQueryData<Fleet>(fleetKey(change)),
        };
        queryClient.setQueriesData<FleetPage>({ queryKey: lists }, (page) =>
          page
            ? {
                ...page,
                items: page.items.map((fleet) =>
                  fleet.id === change.fleet_id ? { ...fleet, status: change.status } : fleet,
                ),
              }
            : page,
        );
        queryClient.setQueryData<Fleet>(fleetKey(change), (fleet) =>
          fleet ? { ...fleet, status: change.status } : fleet,
        );
        return snapshot;
      },
      onError: async (error, input, snapshot) => {
        const change = input as StatusChange;
        if (snapshot) {
          for (const [key, page] of snapshot.lists) queryClient.setQueryData(key, page);
          queryClient.setQueryData(fleetKey(change), snapshot.fleet);
        }
        const status = statusOf(error);
        if (status === 409 || status === 412 || status === 404) {
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: lists }),
            queryClient.invalidateQueries({ queryKey: fleetKey(change) }),
          ]);
        }
      },
      onSuccess: (fleet, input) => {
        const change = input as StatusChange;
        queryClient.setQueryData(fleetKey(change), fleet);
        return queryClient.invalidateQueries({ queryKey: lists });
      },
    }),
  );
  return {
    ...mutation,
    /** Asks for the move; only statuses a person may ask for are accepted. */
    change: (change: StatusChange) => mutation.mutate(change),
  };
}

/** The fleets whose status change is on its way, to mark their badges as not yet confirmed. */
export function usePendingFleetIds(): Set<string> {
  const trpc = useTRPC();
  const ids = useMutationState({
    filters: { mutationKey: trpc.fleets.update.mutationKey(), status: "pending" },
    select: (mutation) => (mutation.state.variables as StatusChange | undefined)?.fleet_id,
  });
  return new Set(ids.filter((id): id is string => id !== undefined));
}
