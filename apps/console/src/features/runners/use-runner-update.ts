"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { statusOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";

/**
 * Changes a runner (policy or admin state). The answer is the runner as it now is, with the degraded
 * verdict recomputed; it replaces the page's copy, and the lists and history are read again. A refusal
 * because the runner changed meanwhile (409: revoked by someone else) refetches it.
 */
export function useRunnerUpdate(runnerId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.runners.list.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.runners.listEvents.pathKey() }),
    ]);
  return useMutation(
    trpc.runners.update.mutationOptions({
      onSuccess: async (runner) => {
        queryClient.setQueryData(trpc.runners.get.queryKey({ id: runnerId }), runner);
        await refresh();
      },
      onError: async (error) => {
        const status = statusOf(error);
        if (status === 409 || status === 404) {
          await queryClient.invalidateQueries({ queryKey: trpc.runners.get.queryKey({ id: runnerId }) });
        }
      },
    }),
  );
}
