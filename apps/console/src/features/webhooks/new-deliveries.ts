"use client";

import { useEffect, useState } from "react";

/** Where a delivery stands in the log's order: newest first by creation, then by id. */
export interface LogKey {
  created_at: number;
  id: string;
}

/** Whether a delivery came after the newest one the person has been shown. */
export function isNewer(item: LogKey, top: LogKey): boolean {
  return item.created_at > top.created_at || (item.created_at === top.created_at && item.id > top.id);
}

const keyOf = (item: LogKey | undefined): LogKey | null =>
  item ? { created_at: item.created_at, id: item.id } : null;

/**
 * New deliveries on the log's first page wait behind an "N new" banner, so the rows under the cursor do
 * not move (a poll or a refetch on focus brings them). An action of the person's own (a test ping, a
 * replay) shows everything its refetch brings. Per view: a filter or a page starts from what it shows.
 */
export function useNewBehindBanner<T extends LogKey>(
  items: T[] | undefined,
  updatedAt: number,
  view: string,
  onFirstPage: boolean,
) {
  const [accepted, setAccepted] = useState<{ view: string; top: LogKey | null; allUntil?: number } | null>(
    null,
  );
  const current = keyOf(items?.[0]);
  useEffect(() => {
    if (items === undefined) return;
    if (
      accepted?.view !== view ||
      (accepted.allUntil !== undefined && updatedAt > accepted.allUntil) ||
      // An empty log takes the first delivery as it comes: there is nothing under the cursor to move.
      (accepted.top === null && current !== null && accepted.allUntil === undefined)
    )
      setAccepted({ view, top: current });
  }, [items, updatedAt, accepted, view, current]);

  const top = accepted?.view === view && accepted.allUntil === undefined ? accepted.top : null;
  const all = items ?? [];
  const shown = onFirstPage && top !== null ? all.filter((item) => !isNewer(item, top)) : all;
  return {
    shown,
    waiting: all.length - shown.length,
    /** Show the new ones now. */
    showNew: () => setAccepted({ view, top: current }),
    /** Show everything until the next answer lands (after an action of the person's own). */
    showAll: () => setAccepted({ view, top: null, allUntil: Date.now() }),
  };
}
