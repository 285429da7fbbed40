"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { LiveState } from "../../components/live-status.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { type LiveRun, withFrame } from "./runs.ts";
import type { RunFrame } from "./stream-frames.ts";
import { type EventStream, useEventStream } from "./use-event-stream.ts";

export interface LiveRuns {
  /** The runs this page saw frames of, by event id. */
  runs: ReadonlyMap<string, LiveRun>;
  stream: EventStream;
}

/**
 * A fleet's stream (or the workspace's, without a fleet), folded into runs, and the lists it makes stale
 * refetched: events when one enters or completes (and schedules when one fired), the inbox and the run's
 * read when a gate opens or is answered.
 */
export function useLiveRuns(
  workspaceId: string | undefined,
  fleetId?: string,
  /** Told every frame as well (a run's page keeps its own run's frames). */
  also?: (frame: RunFrame) => void,
): LiveRuns {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [runs, setRuns] = useState<ReadonlyMap<string, LiveRun>>(new Map());
  // A run's stored frames are carried on by the frames themselves: only a gap in the stream reads them again.
  const refetchEvents = useCallback(() => {
    const frames = trpc.fleetEvents.listFrames.pathKey()[0];
    void queryClient.invalidateQueries({
      queryKey: trpc.fleetEvents.pathKey(),
      predicate: (query) => JSON.stringify(query.queryKey[0]) !== JSON.stringify(frames),
    });
  }, [queryClient, trpc]);
  const refetchAll = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.fleetEvents.pathKey() });
  }, [queryClient, trpc]);
  const onFrame = useCallback(
    (frame: RunFrame) => {
      setRuns((current) => withFrame(current, frame));
      also?.(frame);
      if (frame.kind === "event_received" || frame.kind === "event_complete") {
        refetchEvents();
        // A schedule fired: its last fire moved, and a one-time schedule retires (the list shows it go).
        if (frame.kind === "event_received" && frame.payload.event_type === "cron")
          void queryClient.invalidateQueries({ queryKey: trpc.schedules.list.pathKey() });
        if (frame.kind === "event_complete")
          void queryClient.invalidateQueries({ queryKey: trpc.fleets.get.pathKey() });
      } else if (frame.kind === "gate_opened" || frame.kind === "gate_resolved") {
        void queryClient.invalidateQueries({ queryKey: trpc.approvals.pathKey() });
        // The event's read names its gates: the run's own, no other event's.
        void queryClient.invalidateQueries({
          queryKey: trpc.fleetEvents.get.pathKey(),
          predicate: (query) =>
            (query.queryKey[1] as { input?: { event_id?: string } } | undefined)?.input?.event_id ===
            frame.event_id,
        });
      }
    },
    [queryClient, trpc, refetchEvents, also],
  );
  const stream = useEventStream({ workspaceId, fleetId, onFrame, onGap: refetchAll });
  return { runs, stream };
}

/**
 * The connection indicator's state: the stream's own when the API serves one, else the polling list's
 * (a list whose last poll failed is offline; one failing while it asks again is reconnecting).
 */
export function liveStateOf(
  stream: EventStream,
  poll: { hasData: boolean; failed: boolean; fetching: boolean; overdue: boolean },
): LiveState {
  if (stream.state !== "unavailable") return stream.state;
  if (!poll.hasData) return poll.failed ? "offline" : "connecting";
  if (poll.failed) return poll.fetching ? "reconnecting" : "offline";
  return poll.overdue ? "reconnecting" : "live";
}
