"use client";

import { Button } from "@fleet/ui";
import "./live-status.css";

export type LiveState = "connecting" | "live" | "reconnecting" | "offline" | "paused";

const words: Record<LiveState, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  offline: "Offline",
  paused: "Not live: an older page",
};

/** Whether the list is following new data, and a way back when it stopped. */
export function LiveStatus({ state, onReconnect }: { state: LiveState; onReconnect: () => void }) {
  return (
    <span className="live-status" data-state={state}>
      <span className="live-status__dot" aria-hidden="true" />
      <span role="status">{words[state]}</span>
      {state === "offline" ? (
        <Button size="sm" variant="ghost" onClick={onReconnect}>
          Reconnect
        </Button>
      ) : null}
    </span>
  );
}
