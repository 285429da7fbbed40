"use client";

import { Button, Dialog } from "@fleet/ui";
import { skipToken, useQueries, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ReactNode, useCallback, useContext, useEffect, useId, useMemo, useRef, useState } from "react";
import { CommandsContext, type PageAction } from "../lib/commands.tsx";
import { consolePages } from "../lib/pages.ts";
import { matchItems, type PaletteItem } from "../lib/palette-match.ts";
import { useShortcutsSheet } from "../lib/shortcuts.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { fleetHref, runnerHref } from "../lib/urls.ts";

/** How long the palette's lists are reused before they are fetched again (they are read on every open). */
const LISTS_FRESH_MS = 60_000;
/** Workspaces whose fleets the palette lists (one list request each). */
const WORKSPACE_LIMIT = 20;
const PER_GROUP = 8;
/** How long typing pauses before a workspace with more fleets than one list holds is asked by name. */
const SEARCH_DELAY_MS = 250;

type Entry = PaletteItem & ({ href: string } | { run: () => void });

/**
 * The command palette (Ctrl+K or ⌘K anywhere, or the sidebar's button): go to a page, a fleet, a runner or an
 * API key by name, or run an action the page on screen offers. A modal combobox over a listbox: the focus
 * stays in the search field, the arrows move the active option, Enter takes it, Escape closes.
 */
export function CommandPaletteProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [registry, setRegistry] = useState<ReadonlyMap<string, PageAction[]>>(new Map());

  const register = useCallback((id: string, actions: PageAction[] | null) => {
    setRegistry((current) => {
      const next = new Map(current);
      if (actions) next.set(id, actions);
      else next.delete(id);
      return next;
    });
  }, []);

  useEffect(() => {
    // A chord, not a letter: it works from a text field too, but not over another dialog.
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      if (event.key.toLowerCase() !== "k") return;
      const dialog = document.querySelector("dialog[open]");
      if (dialog && !dialog.closest(".palette-dialog-host")) return;
      event.preventDefault();
      setOpen((current) => !current);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const api = useMemo(() => ({ register, open: () => setOpen(true) }), [register]);
  const actions = useMemo(() => [...registry.values()].flat(), [registry]);

  return (
    <CommandsContext.Provider value={api}>
      {children}
      <PaletteDialog open={open} onClose={() => setOpen(false)} actions={actions} />
    </CommandsContext.Provider>
  );
}

function PaletteDialog({
  open,
  onClose,
  actions,
}: {
  open: boolean;
  onClose: () => void;
  actions: PageAction[];
}) {
  return (
    // The host tells the Ctrl+K handler which open dialog is the palette's own.
    <div className="palette-dialog-host">
      <Dialog
        open={open}
        onClose={onClose}
        title="Command palette"
        description="Type a name to go to a page, fleet, runner or API key, or to run an action of this page."
      >
        {open ? <Palette onClose={onClose} actions={actions} /> : null}
      </Dialog>
    </div>
  );
}

function Palette({ onClose, actions }: { onClose: () => void; actions: PageAction[] }) {
  const router = useRouter();
  const openSheet = useShortcutsSheet();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const optionId = useId();
  const list = useRef<HTMLDivElement>(null);
  const entities = usePaletteEntities(useSettled(query.trim(), SEARCH_DELAY_MS));

  const entries: Entry[] = useMemo(
    () => [
      ...actions.map((action, index) => ({
        id: `action:${index}`,
        group: "Actions on this page",
        label: action.label,
        keywords: action.keywords,
        shortcut: action.shortcut,
        run: action.run,
      })),
      ...consolePages.map((page) => ({
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
    [actions, entities.items, openSheet],
  );
  const results = useMemo(() => matchItems(entries, query, PER_GROUP), [entries, query]);
  const current = Math.min(active, Math.max(results.length - 1, 0));

  useEffect(() => {
    list.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView({ block: "nearest" });
  }, [current]);

  const take = (entry: Entry | undefined) => {
    if (!entry) return;
    onClose();
    if ("href" in entry) router.push(entry.href);
    // After the palette has closed and handed the focus back, so a dialog the action opens keeps it.
    else setTimeout(entry.run, 0);
  };

  const groups: { name: string; entries: { entry: Entry; index: number }[] }[] = [];
  results.forEach((entry, index) => {
    const last = groups.at(-1);
    if (last?.name === entry.group) last.entries.push({ entry, index });
    else groups.push({ name: entry.group, entries: [{ entry, index }] });
  });

  return (
    <div className="palette">
      <input
        className="ui-input palette__input"
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={results.length > 0 ? `${optionId}-${current}` : undefined}
        aria-label="Search pages, fleets, runners, API keys and actions"
        placeholder="Search pages, fleets, runners, keys, actions…"
        autoComplete="off"
        spellCheck={false}
        value={query}
        data-autofocus
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
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
        }}
      />
      <div ref={list} id={listId} role="listbox" aria-label="Results" className="palette__list">
        {groups.map((group) => (
          // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are role="group"; a fieldset is for form controls
          <div
            key={group.name}
            role="group"
            aria-labelledby={`${optionId}-group-${group.name}`}
            className="palette__group"
          >
            <div id={`${optionId}-group-${group.name}`} role="presentation" className="palette__group-name">
              {group.name}
            </div>
            {group.entries.map(({ entry, index }) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the search field's (Enter takes the active option)
              <div
                key={entry.id}
                id={`${optionId}-${index}`}
                role="option"
                aria-selected={index === current}
                data-index={index}
                // Reached by the arrows from the search field (aria-activedescendant), never by Tab.
                tabIndex={-1}
                className="palette__option"
                // The focus stays in the search field; a press only chooses.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => take(entry)}
              >
                <span className="palette__label">{entry.label}</span>
                {entry.detail ? <span className="palette__detail">{entry.detail}</span> : null}
                {entry.shortcut ? (
                  <span className="palette__shortcut" aria-hidden="true">
                    {entry.shortcut.split(" ").map((key) => (
                      <kbd key={key}>{key}</kbd>
                    ))}
                  </span>
                ) : null}
              </div>
            ))}
          </div>
        ))}
      </div>
      <p className="palette__status" role="status">
        {results.length === 0 ? `Nothing matches “${query.trim()}”.` : `${results.length} results.`}
        {entities.note ? ` ${entities.note}` : ""}
      </p>
      <div className="palette__footer">
        <span>
          <kbd>↑</kbd> <kbd>↓</kbd> to move, <kbd>Enter</kbd> to go, <kbd>Esc</kbd> to close
        </span>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}

/**
 * The fleets of the tenant's workspaces, the runners (when the browser holds operator access) and the API
 * keys, through their list procedures, fetched when the palette opens and reused for a minute. A list that
 * fails only leaves its group out, and the status line says so.
 */
function usePaletteEntities(search: string): { items: Entry[]; note: string } {
  const trpc = useTRPC();
  const fresh = { staleTime: LISTS_FRESH_MS, retry: false } as const;
  const workspaces = useQuery(trpc.workspaces.list.queryOptions({ limit: 100 }, fresh));
  const shown = workspaces.data?.items.slice(0, WORKSPACE_LIMIT) ?? [];
  const fleets = useQueries({
    queries: shown.map((workspace) =>
      trpc.fleets.list.queryOptions({ workspace_id: workspace.id, limit: 100 }, fresh),
    ),
  });
  // A workspace with more fleets than its first list holds is asked for the typed name as well.
  const searched = useQueries({
    queries: shown.map((workspace, index) =>
      trpc.fleets.list.queryOptions(
        fleets[index]?.data?.next_cursor && search
          ? { workspace_id: workspace.id, limit: 100, name: search.slice(0, 100) }
          : skipToken,
        fresh,
      ),
    ),
  });
  const runners = useQuery(trpc.runners.list.queryOptions({ limit: 100 }, fresh));
  const keys = useQuery(trpc.apiKeys.list.queryOptions({ limit: 100 }, fresh));

  const several = shown.length > 1;
  const items: Entry[] = [
    ...shown.flatMap((workspace, index) =>
      uniqueById([...(fleets[index]?.data?.items ?? []), ...(searched[index]?.data?.items ?? [])]).map(
        (fleet) => ({
          id: `fleet:${fleet.id}`,
          group: "Fleets",
          label: fleet.name,
          detail: several ? `${fleet.status} · ${workspace.name}` : fleet.status,
          href: fleetHref({ workspaceId: workspace.id, fleetId: fleet.id, tab: "events" }),
        }),
      ),
    ),
    ...(runners.data?.items ?? []).map((runner) => ({
      id: `runner:${runner.runner_id}`,
      group: "Runners",
      label: runner.host_id,
      detail: [runner.liveness, ...runner.labels].join(" · "),
      href: runnerHref({ runnerId: runner.runner_id }),
    })),
    ...(keys.data?.items ?? []).map((key) => ({
      id: `key:${key.id}`,
      group: "API keys",
      label: key.key_name,
      detail: [key.key_prefix ? `${key.key_prefix}…` : null, key.active ? null : "revoked"]
        .filter(Boolean)
        .join(" · "),
      href: "/api-keys",
    })),
  ];
  const loading = [
    workspaces.isPending || fleets.some((query) => query.isPending) ? "fleets" : null,
    runners.isPending ? "runners" : null,
    keys.isPending ? "API keys" : null,
  ].filter(Boolean);
  const failed = [
    workspaces.isError || fleets.some((query) => query.isError) ? "fleets" : null,
    keys.isError ? "API keys" : null,
  ].filter(Boolean);
  const note = [
    loading.length > 0 ? `Loading ${loading.join(", ")}…` : "",
    failed.length > 0 ? `Could not load ${failed.join(", ")}.` : "",
    // Runners are the operator's: without operator access in this browser the list is refused, not broken.
    runners.isError ? "Runners need operator access." : "",
  ]
    .filter(Boolean)
    .join(" ");
  return { items, note };
}

/**
 * The palette's button in the sidebar, for the mouse, for anyone who does not know the chord, and on a
 * phone (in the menu: the only way there, so it stays when the keyboard's buttons are hidden).
 */
export function CommandPaletteButton() {
  const api = useContext(CommandsContext);
  return (
    <Button
      variant="ghost"
      size="sm"
      className="shell__shortcuts shell__palette"
      aria-keyshortcuts="Control+K Meta+K"
      onClick={() => api?.open()}
    >
      Go to or run… <kbd>Ctrl K</kbd>
    </Button>
  );
}

function uniqueById<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.id) && seen.add(item.id));
}

/** The value once it has stayed the same for `ms`. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
