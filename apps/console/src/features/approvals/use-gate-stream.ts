"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { useTRPC } from "../../lib/trpc.ts";
import type { RunFrame } from "../fleet-events/stream-frames.ts";
import { type EventStream, useEventStream } from "../fleet-events/use-event-stream.ts";

/** A gate someone answered while the inbox was open: it leaves the pending list, and this says who. */
export interface AnsweredNotice {
  gateId: string;
  /** The gate as the inbox named it, when it was listed. */
  name: string | undefined;
  outcome: string;
  resolvedBy: string;
  at: number;
}

/** How many notices the inbox keeps in view. */
const NOTICES = 3;
const gateKinds = ["gate_opened", "gate_resolved"] as const;

/**
 * The workspace's gate frames: a gate opened or answered anywhere refetches the inbox at once, and an
 * answer leaves a notice naming who answered.
 */
export function useGateStream(
  workspaceId: string | undefined,
  nameOf: (gateId: string) => string | undefined,
): { stream: EventStream; notices: AnsweredNotice[]; dismiss: (gateId: string) => void } {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [notices, setNotices] = useState<AnsweredNotice[]>([]);
  const names = useRef(nameOf);
  names.current = nameOf;
  const refetch = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.approvals.pathKey() });
  }, [queryClient, trpc]);
  const onFrame = useCallback(
    (frame: RunFrame) => {
      if (frame.kind === "gate_resolved") {
        const notice: AnsweredNotice = {
          gateId: frame.payload.gate_id,
          name: names.current(frame.payload.gate_id),
          outcome: frame.payload.outcome,
          resolvedBy: frame.payload.resolved_by,
          at: frame.payload.resolved_at,
        };
        setNotices((current) =>
          [notice, ...current.filter((item) => item.gateId !== notice.gateId)].slice(0, NOTICES),
        );
      }
      refetch();
    },
    [refetch],
  );
  const stream = useEventStream({ workspaceId, kinds: gateKinds, onFrame, onGap: refetch });
  const dismiss = useCallback(
    (gateId: string) => setNotices((current) => current.filter((item) => item.gateId !== gateId)),
    [],
  );
  return { stream, notices, dismiss };
}
