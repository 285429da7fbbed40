"use client";

import { useEffect, useState } from "react";

/** How often a live list looks for news while all is well. */
export const POLL_MS = 5_000;
const MAX_BACKOFF_MS = 60_000;

/**
 * A query's next poll: every few seconds, and after failures longer each time, with jitter so many open
 * consoles do not retry in step.
 */
export function pollInterval(query: { state: { fetchFailureCount: number } }, every = POLL_MS): number {
  const failures = query.state.fetchFailureCount;
  if (failures === 0) return every;
  const ceiling = Math.min(MAX_BACKOFF_MS, every * 2 ** failures);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/**
 * Whether a polled list is overdue: its last good answer is older than `limitMs`. A poll still waiting on
 * a hung API is not yet an error, but the page must not keep saying "Live" meanwhile.
 */
export function useOverdue(updatedAt: number, limitMs = POLL_MS * 2 + 2_000): boolean {
  const [now, setNow] = useState(() => Date.now());
  const due = updatedAt + limitMs;
  useEffect(() => {
    if (updatedAt === 0) return;
    const wait = due - Date.now();
    if (wait <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), wait + 50);
    return () => clearTimeout(timer);
  }, [due, updatedAt]);
  return updatedAt !== 0 && Math.max(now, Date.now()) > due;
}
