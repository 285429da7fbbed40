"use client";

import { useRouter } from "next/navigation";
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { useOpenPages } from "./access.ts";
import type { PageAction } from "./commands.tsx";
import { matchItems } from "./palette-match.ts";
import { useShortcutsSheet } from "./shortcuts.tsx";
import { type PaletteEntry, usePaletteEntities, useSettled } from "./use-palette-entities.ts";

/** Results the palette shows per group; PageUp and PageDown move by as many. */
const PER_GROUP = 8;
/** How long typing pauses before a workspace with more fleets than one list holds is asked by name. */
const SEARCH_DELAY_MS = 250;

/** A group of results under its name, each result with its place in the whole list. */
export interface PaletteGroup {
  name: string;
  entries: { entry: PaletteEntry; index: number }[];
}

/**
 * The palette's search and its results: the page's actions, the pages, the fleets, runners and keys, and
 * the help, matched against what is typed; the active result, moved by the arrows; taking one goes to it
 * or runs it after the palette has closed.
 */
export function usePalette(actions: PageAction[], onClose: () => void) {
  const router = useRouter();
  const openSheet = useShortcutsSheet();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const optionId = useId();
  const list = useRef<HTMLDivElement>(null);
  const entities = usePaletteEntities(useSettled(query.trim(), SEARCH_DELAY_MS));
  // The pages the person's scopes open; the navigation shows the others disabled or not at all.
  const pages = useOpenPages();

  const entries: PaletteEntry[] = useMemo(
    () => [
      ...actions.map((action, index) => ({
        id: `action:${index}`,
        group: "Actions on this page",
        label: action.label,
        keywords: action.keywords,
        shortcut: action.shortcut,
        run: action.run,
      })),
      ...pages.map((page) => ({
        id: `page:${page.href}`,
        group: "Pages",
        label: page.label,
        keywords: page.keywords,
        shortcut: `g ${page.goKey}`,
        href: page.href,
      })),
      ...entities.items,
      {
        id: "action:shortcuts",
        group: "Help",
        label: "Show keyboard shortcuts",
        keywords: "keys help",
        shortcut: "?",
        run: openSheet,
      },
    ],
    [actions, pages, entities.items, openSheet],
  );
  const results = useMemo(() => matchItems(entries, query, PER_GROUP), [entries, query]);
  const current = Math.min(active, Math.max(results.length - 1, 0));

  useEffect(() => {
    list.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView({ block: "nearest" });
  }, [current]);

  const take = (entry: PaletteEntry | undefined) => {
    if (!entry) return;
    onClose();
    if ("href" in entry) router.push(entry.href);
    // After the palette has closed and handed the focus back, so a dialog the action opens keeps it.
    else setTimeout(entry.run, 0);
  };

  const search = (text: string) => {
    setQuery(text);
    setActive(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = results.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: current >= last ? 0 : current + 1,
      ArrowUp: current <= 0 ? last : current - 1,
      Home: 0,
      End: last,
      PageDown: Math.min(current + PER_GROUP, last),
      PageUp: Math.max(current - PER_GROUP, 0),
    };
    if (event.key in moves && results.length > 0) {
      event.preventDefault();
      setActive(moves[event.key] ?? 0);
    } else if (event.key === "Enter") {
      event.preventDefault();
      take(results[current]);
    }
  };

  const groups: PaletteGroup[] = [];
  results.forEach((entry, index) => {
    const last = groups.at(-1);
    if (last?.name === entry.group) last.entries.push({ entry, index });
    else groups.push({ name: entry.group, entries: [{ entry, index }] });
  });

  return {
    query,
    search,
    current,
    setActive,
    results,
    groups,
    take,
    onKeyDown,
    note: entities.note,
    list,
    listId,
    optionId,
  };
}
