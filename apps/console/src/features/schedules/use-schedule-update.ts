"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * Changes a schedule with the version the person saw (`if_match`, the row's etag). A stale version (412),
 * a push under way (409) or a schedule gone (404) reads the list again, so the page shows what is true now
 * beside the refusal.
 */
export function useScheduleUpdate(workspaceId: string, fleetId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = trpc.schedules.list.queryKey({ workspace_id: workspaceId, fleet_id: fleetId });
  return useMutation(
    trpc.schedules.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: list }),
      onError: (error) =>
        [404, 409, 412].includes(statusOf(error) ?? 0)
          ? queryClient.invalidateQueries({ queryKey: list })
          : undefined,
    }),
  );
}
