"use client";

import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { LiveState } from "../../components/live-status.tsx";
import { pollInterval, useOverdue } from "../../lib/poll.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { type ApprovalsPosition, approvalsHref } from "../../lib/urls.ts";
import { useWorkspaceChoice } from "../../lib/use-workspace.ts";
import { liveStateOf } from "../fleet-events/use-live-runs.ts";
import { useIdWorkspace } from "../ids/use-id-workspace.ts";
import type { Gate } from "./answer.ts";
import { gateName } from "./bulk-answer.tsx";
import { approvalsFleetsInput, approvalsListInput } from "./inbox-query.ts";
import { useGateStream } from "./use-gate-stream.ts";

/** How long a gate the person did not open with j or k is on screen before a and d answer it. */
const SETTLE_MS = 800;

/**
 * The inbox's data and the gate open in its pane: the workspace's gates for the view in the URL (polled
 * until the live tail lands, refreshed whenever the window regains focus), the fleets its filter offers,
 * the open gate in full, and j and k moving the pane without a round trip to the server.
 */
export function useInbox(position: ApprovalsPosition) {
  const trpc = useTRPC();
  // A link to one gate without its workspace (a fleet's "waiting for an answer") opens the gate's own
  // workspace, found by its id, every other parameter kept: never the oldest gate of another inbox.
  const owner = useIdWorkspace(position.workspaceId === undefined ? position.gate : undefined, "gate");
  const choice = useWorkspaceChoice(position.workspaceId, owner);
  const { chosenId } = choice;
  const { status, fleetId, kind, cursor } = position;
  const here = (patch: Partial<ApprovalsPosition>) =>
    approvalsHref({ ...position, workspaceId: chosenId, ...patch });

  // The gates listed, for naming one that someone answered (its frame carries only its id).
  const listedGates = useRef<Gate[]>([]);
  const gates = useGateStream(chosenId, (gateId) => {
    const known = listedGates.current.find((item) => item.gate_id === gateId);
    return known ? gateName(known) : undefined;
  });
  const list = useQuery(
    trpc.approvals.list.queryOptions(chosenId ? approvalsListInput(chosenId, position) : skipToken, {
      // The previous page stays while the next loads, but never another workspace's or tab's rows.
      placeholderData: (previous, query) => {
        const input = (
          query?.queryKey[1] as { input?: { workspace_id?: string; status?: string } } | undefined
        )?.input;
        return input?.workspace_id === chosenId && input?.status === status
          ? keepPreviousData(previous)
          : undefined;
      },
      // The stream refetches when a gate opens or is answered; without it (or while it is down), poll.
      refetchInterval: cursor || gates.stream.state === "live" ? false : pollInterval,
      refetchIntervalInBackground: false,
      refetchOnWindowFocus: "always",
    }),
  );
  const fleets = useQuery(
    trpc.fleets.list.queryOptions(chosenId ? approvalsFleetsInput(chosenId) : skipToken),
  );
  const overdue = useOverdue(list.dataUpdatedAt);
  listedGates.current = list.data?.items ?? [];
  const me = useQuery(trpc.users.getMe.queryOptions({})).data?.user_id;

  const items = list.data?.items ?? [];
  // The open gate changes with every j and k: kept here and written into the URL without a round trip to
  // the server, so keys pressed quickly each move from where the last one left.
  // The view (workspace, tab, filters, page) the key moves were made in: another view starts afresh.
  const view = JSON.stringify([chosenId, status, fleetId, kind, cursor]);
  const [opened, setOpened] = useState<{ view: string; from: string | undefined; gate: string | undefined }>({
    view,
    from: position.gate,
    gate: position.gate,
  });
  const selected = opened.view === view && opened.from === position.gate ? opened.gate : position.gate;
  const currentId = selected ?? items[0]?.gate_id;
  const listed = items.find((gate) => gate.gate_id === currentId);
  const detail = useQuery(
    trpc.approvals.get.queryOptions(
      chosenId && currentId ? { workspace_id: chosenId, gate_id: currentId } : skipToken,
      {
        refetchInterval: (query) => (query.state.data?.status === "pending" ? pollInterval(query) : false),
        refetchOnWindowFocus: "always",
      },
    ),
  );
  const gate: Gate | undefined = detail.data ?? listed;

  // The row the keys moved to stays in sight.
  useEffect(() => {
    if (currentId)
      document
        .querySelector(`tr[data-gate-id="${CSS.escape(currentId)}"]`)
        ?.scrollIntoView({ block: "nearest" });
  }, [currentId]);

  const open = (gateId: string | undefined) => {
    setOpened({ view, from: position.gate, gate: gateId });
    window.history.replaceState(window.history.state, "", here({ gate: gateId }));
  };
  const move = (step: 1 | -1) => {
    if (items.length === 0) return;
    const index = items.findIndex((item) => item.gate_id === currentId);
    const next = index === -1 ? 0 : Math.min(items.length - 1, Math.max(0, index + step));
    openedByKey.current = items[next]?.gate_id !== currentId;
    open(items[next]?.gate_id);
  };

  // a and d answer only a gate that has been on screen a moment, unless the person opened it with j or k:
  // after an answer the inbox moves on by itself (and the list shifts when a gate leaves it), and a second
  // press (a double press, a held key) must not answer a gate the person has not read yet.
  const openedByKey = useRef(false);
  const shown = useRef({ gate: currentId, at: Number.NEGATIVE_INFINITY });
  useEffect(() => {
    shown.current = {
      gate: currentId,
      at: openedByKey.current ? Number.NEGATIVE_INFINITY : performance.now(),
    };
    openedByKey.current = false;
  }, [currentId]);
  const settled = () =>
    !(shown.current.gate === currentId && performance.now() - shown.current.at < SETTLE_MS);

  const live: LiveState = cursor
    ? "paused"
    : liveStateOf(gates.stream, {
        hasData: list.data !== undefined,
        failed: list.error !== null,
        fetching: list.isFetching,
        overdue,
      });

  return {
    choice,
    chosenId,
    here,
    gates,
    list,
    fleets,
    me,
    items,
    view,
    selected,
    currentId,
    detail,
    gate,
    open,
    move,
    settled,
    live,
  };
}

export type Inbox = ReturnType<typeof useInbox>;
