"use client";

import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { FleetView } from "../../lib/fleet-status.ts";
import { pollInterval, useOverdue } from "../../lib/poll.ts";
import { useTRPC } from "../../lib/trpc.ts";
import type { FleetEventItem, FleetEventView } from "./event-labels.ts";
import type { LiveRun } from "./runs.ts";
import { turnIds } from "./turns.ts";
import type { EventStream } from "./use-event-stream.ts";
import { liveStateOf } from "./use-live-runs.ts";

/** One turn of the conversation: the event as listed, its body once read, and its run's frames. */
export interface Turn {
  eventId: string;
  item: FleetEventItem | undefined;
  detail: FleetEventView | undefined;
  run: LiveRun | undefined;
}

/**
 * A fleet's conversation: its newest events and the runs in flight, each with its body (a finished event
 * is read once; one whose status moved is read again), the live state of the list, and the scroller that
 * follows the newest turn while the reader is at the bottom.
 */
export function useConversation(
  fleet: FleetView,
  runs: ReadonlyMap<string, LiveRun>,
  /** The fleet's stream: while it is live it says when the list is stale, so the list need not poll. */
  stream: EventStream,
) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const scope = { workspace_id: fleet.workspace_id, fleet_id: fleet.fleet_id };
  // The events tab's first page asks the same: one request serves both.
  const list = useQuery(
    trpc.fleetEvents.list.queryOptions(scope, {
      refetchInterval: stream.state === "live" ? false : pollInterval,
      refetchIntervalInBackground: false,
    }),
  );
  const overdue = useOverdue(list.dataUpdatedAt);
  const live = liveStateOf(stream, {
    hasData: list.data !== undefined,
    failed: list.error !== null,
    fetching: list.isFetching,
    overdue,
  });
  const items = list.data?.items ?? [];
  const running = [...runs.values()].filter((run) => run.fleetId === fleet.fleet_id);
  const shown = turnIds(
    items.map((item) => item.event_id),
    running.map((run) => run.eventId),
  );
  const details = useQueries({
    queries: shown.map((eventId) => ({
      ...trpc.fleetEvents.get.queryOptions({ ...scope, event_id: eventId }),
      // A finished event does not change; one in flight is asked again when the list sees it move.
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  const byId = new Map(items.map((item) => [item.event_id, item]));
  const turns: Turn[] = shown.map((eventId, index) => ({
    eventId,
    item: byId.get(eventId),
    detail: details[index]?.data,
    run: runs.get(eventId),
  }));

  // An event whose status moved since its body was read is read again (its answer has arrived).
  const moved = turns
    .filter((turn) => turn.item && turn.detail && turn.item.status !== turn.detail.status)
    .map((turn) => turn.eventId)
    .join(",");
  useEffect(() => {
    for (const eventId of moved.split(",").filter(Boolean))
      void queryClient.invalidateQueries({
        queryKey: trpc.fleetEvents.get.queryKey({ ...scope, event_id: eventId }),
      });
  }, [moved, queryClient, trpc, scope.workspace_id, scope.fleet_id]);

  // The newest turn is at the bottom, as in a chat: follow it while the reader is there, not otherwise.
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const tail = turns
    .map((turn) => `${turn.eventId}:${turn.run?.updatedAt ?? ""}:${turn.item?.status ?? ""}`)
    .join();
  useEffect(() => {
    const element = scroller.current;
    if (element && following.current && tail) element.scrollTop = element.scrollHeight;
  }, [tail]);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const track = () => {
      following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
    };
    element.addEventListener("scroll", track, { passive: true });
    return () => element.removeEventListener("scroll", track);
  });

  return { list, live, turns, scroller };
}
