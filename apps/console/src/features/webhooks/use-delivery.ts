"use client";

import { skipToken, useQuery } from "@tanstack/react-query";
import { pollInterval } from "../../lib/poll.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { Delivery } from "./delivery.ts";
import type { EndpointPosition } from "./urls.ts";
import type { useDeliveries } from "./use-deliveries.ts";

/**
 * The delivery the inspect dialog shows; while it is undefined and there is no error, it is being read (or
 * waits for the log's page, which may hold it).
 */
export interface OpenedDelivery {
  delivery: Delivery | undefined;
  /** Its own read's refusal or failure (an id that names no delivery of the endpoint: 404 UZ-WEBHOOK-010). */
  error: ReturnType<typeof useDeliveries>["error"];
  refetch: () => void;
}

/**
 * The delivery the URL opens (`delivery=<event id>`): taken from the log's page shown when it holds it,
 * so opening a row asks nothing more; otherwise read on its own (a link opened later, a delivery that
 * moved to another page or that the filters leave out). Read on its own, it polls while pending, as the
 * log does, so its attempts land.
 */
export function useOpenedDelivery(
  position: EndpointPosition,
  page: ReturnType<typeof useDeliveries>,
): OpenedDelivery {
  const trpc = useTRPC();
  const { workspaceId, endpointId, delivery: eventId } = position;
  const onPage = eventId ? page.data?.items.find((item) => item.id === eventId) : undefined;
  // Only once the page has answered (or failed) without it: before then it may hold the delivery.
  const ownRead =
    workspaceId !== undefined && eventId !== undefined && onPage === undefined && !page.isPending;
  const own = useQuery(
    trpc.webhookEndpoints.getDelivery.queryOptions(
      ownRead ? { workspace_id: workspaceId, endpoint_id: endpointId, event_id: eventId } : skipToken,
      {
        refetchInterval: (query) => (query.state.data?.status === "pending" ? pollInterval(query) : false),
        refetchIntervalInBackground: false,
      },
    ),
  );
  if (onPage !== undefined || eventId === undefined)
    return { delivery: onPage, error: null, refetch: () => {} };
  return {
    delivery: own.data,
    error: own.data === undefined ? own.error : null,
    refetch: () => void own.refetch(),
  };
}
