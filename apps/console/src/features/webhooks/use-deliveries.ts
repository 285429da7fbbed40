"use client";

import { keepPreviousData, skipToken, useQuery, useQueryClient } from "@tanstack/react-query";
import { pollInterval } from "../../lib/poll.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { type DeliveryStatus, deliveryStatusOf, deliveryTypeOf } from "./delivery.ts";
import type { EndpointPosition } from "./urls.ts";

/** A page of the log holds this many deliveries. */
export const DELIVERIES_PAGE = 20;

/**
 * The page of the endpoint's delivery log the URL names. It asks again on window focus (the providers'
 * default) and, while any delivery it shows is pending, every few seconds: a pending delivery's attempts
 * land within seconds, and its status follows them.
 */
export function useDeliveries(position: EndpointPosition) {
  const trpc = useTRPC();
  const { workspaceId, endpointId, after } = position;
  const status: DeliveryStatus | undefined = deliveryStatusOf(position.status);
  const type = deliveryTypeOf(position.type);
  return useQuery(
    trpc.webhookEndpoints.listDeliveries.queryOptions(
      workspaceId
        ? {
            workspace_id: workspaceId,
            endpoint_id: endpointId,
            limit: DELIVERIES_PAGE,
            ...(status ? { status } : {}),
            ...(type ? { type } : {}),
            ...(after ? { starting_after: after } : {}),
          }
        : skipToken,
      {
        placeholderData: keepPreviousData,
        refetchInterval: (query) =>
          query.state.data?.items.some((delivery) => delivery.status === "pending")
            ? pollInterval(query)
            : false,
        refetchIntervalInBackground: false,
      },
    ),
  );
}

/** After a change (a retry, a ping, a replay, an edit): the endpoint, its health and its log ask again. */
export function useWebhooksRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.webhookEndpoints.pathKey() });
}
