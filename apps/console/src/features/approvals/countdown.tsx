"use client";

import { formatUtc, LocalTime } from "@fleet/ui";
import { useId, useSyncExternalStore } from "react";
import { formatDuration, urgency } from "./time-left.ts";
import "./countdown.css";

// One clock ticking each second for every countdown on the page, stopped when none is shown.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The current time, re-rendering each second while mounted. */
export function useSecondClock(): number {
  // On the server the clock reads 0 and the countdown says nothing until the browser takes over.
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => 0,
  );
}

/**
 * "auto-deny in 4m 12s", live, with the deadline in UTC and local time on hover or focus. Under five
 * minutes (or a tenth of the gate's time) it turns urgent; past the deadline it says the sweeper is due.
 */
export function Countdown({
  requestedAt,
  timeoutAt,
  compact = false,
}: {
  requestedAt: number;
  timeoutAt: number;
  /** "4m 12s" for a table's "Time left" column; "auto-deny in 4m 12s" elsewhere. */
  compact?: boolean;
}) {
  const clock = useSecondClock();
  const tooltipId = useId();
  if (clock === 0) return <span className="countdown">…</span>;
  const state = urgency(requestedAt, timeoutAt, clock);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can reveal the deadline
    <span className="countdown ui-time" data-urgency={state} tabIndex={0} aria-describedby={tooltipId}>
      <time dateTime={new Date(timeoutAt).toISOString()}>
        {state === "overdue"
          ? "auto-deny due now"
          : compact
            ? formatDuration(timeoutAt - clock)
            : `auto-deny in ${formatDuration(timeoutAt - clock)}`}
      </time>
      <span role="tooltip" id={tooltipId} className="ui-tooltip">
        <span>Auto-deny at {formatUtc(timeoutAt)}</span>
        <LocalTime value={timeoutAt} />
      </span>
    </span>
  );
}
