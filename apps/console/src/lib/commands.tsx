"use client";

import { createContext, useContext, useEffect, useId, useRef } from "react";

/** Something the page on screen offers to do ("Install fleet", "Create API key"). */
export interface PageAction {
  label: string;
  run: () => void;
  /** Other words it is found by. */
  keywords?: string;
  /** Its single-key shortcut, shown beside it. */
  shortcut?: string;
}

export interface CommandsApi {
  register: (id: string, actions: PageAction[] | null) => void;
  open: () => void;
}

export const CommandsContext = createContext<CommandsApi | null>(null);

/**
 * Offers a page's actions in the command palette while the page is mounted. Like `useShortcuts`, the list
 * may change every render; only its labels re-register it, and the functions are read when run.
 */
export function usePageActions(actions: PageAction[]): void {
  const api = useContext(CommandsContext);
  const id = useId();
  const latest = useRef(actions);
  latest.current = actions;
  const signature = actions.map((action) => `${action.label}:${action.shortcut ?? ""}`).join("|");
  // The signature stands for the list's labels; the functions are read through the ref.
  useEffect(() => {
    if (!api) return;
    const stable = latest.current.map((action, index) => ({
      ...action,
      run: () => latest.current[index]?.run(),
    }));
    api.register(id, stable.length > 0 ? stable : null);
    return () => api.register(id, null);
  }, [api, id, signature]);
}

/** Opens the command palette (for a button). */
export function useOpenCommandPalette(): () => void {
  return useContext(CommandsContext)?.open ?? (() => {});
}
