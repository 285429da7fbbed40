"use client";

import { useMutation } from "@tanstack/react-query";
import { problemOf } from "../../lib/problem.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { type Endpoint, endpointName } from "./endpoint.ts";
import { useWebhooksRefresh } from "./use-deliveries.ts";

/** Disable or enable an endpoint at once (no dialog: it is undone the same way), saying what happened. */
export function useEndpointToggle(say: (message: string) => void) {
  const trpc = useTRPC();
  const refresh = useWebhooksRefresh();
  const toggle = useMutation(
    trpc.webhookEndpoints.update.mutationOptions({
      onSuccess: async (changed) => {
        await refresh();
        say(`${changed.enabled ? "Enabled" : "Disabled"} ${endpointName(changed)}.`);
      },
      onError: (error) => say(`Not changed: ${problemOf(error).title}.`),
    }),
  );
  return {
    pending: toggle.isPending,
    set: (endpoint: Pick<Endpoint, "workspace_id" | "id">, enabled: boolean) =>
      toggle.mutate({ workspace_id: endpoint.workspace_id, endpoint_id: endpoint.id, enabled }),
  };
}
