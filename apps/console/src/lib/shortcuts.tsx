"use client";

import { Button, Dialog } from "@fleet/ui";
import { useRouter } from "next/navigation";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { useOpenPages } from "./access.ts";
import { isTyping } from "./typing-target.ts";

/** One single-key shortcut of a page or pane. */
export interface Shortcut {
  /** The key as `KeyboardEvent.key` reports it ("m", "/", "]"). */
  key: string;
  /** What it does, verb first ("Focus the message box"). */
  description: string;
  run: () => void;
}

interface Registration {
  /** Where the shortcuts apply ("Fleet", "Events"); the sheet groups them by it. */
  scope: string;
  shortcuts: Shortcut[];
}

interface ShortcutsApi {
  register: (id: string, registration: Registration | null) => void;
  openSheet: () => void;
}

const ShortcutsContext = createContext<ShortcutsApi | null>(null);

/** How long after `g` its letter counts (`g` then `f`: Fleets). */
const GO_WINDOW_MS = 1500;

/** What `/` focuses on a page that registers no `/` of its own: the page's search, else its first filter. */
const PAGE_SEARCH =
  'main [data-page-search], main input[type="search"], main form.filters input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]), main form.filters select';

/** Where the off switch is kept, per browser. */
const STORAGE_KEY = "fleet.shortcuts";

/**
 * Single-key shortcuts, scoped to what is on screen: each page or pane registers its own while it is
 * mounted, none fire while a dialog is open or the focus is in a field, `?` lists the active ones, and one
 * switch (kept in this browser) turns them all off.
 */
export function ShortcutsProvider({ children }: { children: ReactNode }) {
  const [registry, setRegistry] = useState<ReadonlyMap<string, Registration>>(new Map());
  const [enabled, setEnabled] = useState(true);
  const [sheetOpen, setSheetOpen] = useState(false);
  const switchId = useId();

  useEffect(() => {
    setEnabled(window.localStorage.getItem(STORAGE_KEY) !== "off");
  }, []);

  const register = useCallback((id: string, registration: Registration | null) => {
    setRegistry((current) => {
      const next = new Map(current);
      if (registration) next.set(id, registration);
      else next.delete(id);
      return next;
    });
  }, []);

  const router = useRouter();
  // Only the pages the person's scopes open: a `g` letter never leads to a refusal.
  const openPages = useOpenPages();
  // When `g` was pressed, waiting for the page's letter; a second key later than this is a key of its own.
  const goPressedAt = useRef<number | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      // Any key ends the wait for a go letter, also one typed into a field.
      const goPressed = goPressedAt.current;
      goPressedAt.current = null;
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target) || document.querySelector("dialog[open]")) return;
      if (goPressed !== null && event.timeStamp - goPressed <= GO_WINDOW_MS) {
        const page = openPages.find((candidate) => candidate.goKey === event.key);
        if (page) {
          event.preventDefault();
          router.push(page.href);
          return;
        }
      }
      if (event.key === "?") {
        event.preventDefault();
        setSheetOpen(true);
        return;
      }
      for (const { shortcuts } of registry.values()) {
        const shortcut = shortcuts.find((candidate) => candidate.key === event.key);
        if (shortcut) {
          event.preventDefault();
          shortcut.run();
          return;
        }
      }
      if (event.key === "g") {
        goPressedAt.current = event.timeStamp;
        return;
      }
      // A page without a `/` of its own: its first filter or search field.
      if (event.key === "/") {
        const field = document.querySelector<HTMLElement>(PAGE_SEARCH);
        if (field) {
          event.preventDefault();
          field.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [enabled, registry, router, openPages]);

  const api = useMemo(() => ({ register, openSheet: () => setSheetOpen(true) }), [register]);
  const groups = Array.from(registry.values()).filter((group) => group.shortcuts.length > 0);

  return (
    <ShortcutsContext.Provider value={api}>
      {children}
      <Dialog
        open={sheetOpen}
        onClose={() => setSheetOpen(false)}
        title="Keyboard shortcuts"
        description="Keys for what is on screen. Single keys do nothing while you type in a field or a dialog is open."
        footer={
          <Button onClick={() => setSheetOpen(false)} data-autofocus>
            Close
          </Button>
        }
      >
        <label htmlFor={switchId} className="shortcuts__switch">
          <input
            id={switchId}
            type="checkbox"
            checked={enabled}
            onChange={(event) => {
              setEnabled(event.target.checked);
              window.localStorage.setItem(STORAGE_KEY, event.target.checked ? "on" : "off");
            }}
          />
          Use single-key shortcuts in this browser
        </label>
        <dl className="shortcuts">
          <div className="shortcuts__group">
            <dt className="shortcuts__scope">Everywhere</dt>
            <dd>
              <kbd>Ctrl</kbd>
              <kbd>K</kbd> or <kbd>⌘</kbd>
              <kbd>K</kbd> Open the command palette (go to a page, fleet, runner or key; run this page’s
              actions)
            </dd>
            <dd>
              <kbd>?</kbd> Show this list
            </dd>
            <dd>
              <kbd>/</kbd> Focus the page’s search or first filter
            </dd>
            <dd>
              <kbd>Tab</kbd> (first on a page) Skip to content
            </dd>
          </div>
          <div className="shortcuts__group">
            <dt className="shortcuts__scope">Go to (g, then a letter)</dt>
            {openPages.map((page) => (
              <dd key={page.href}>
                <kbd>g</kbd>
                <kbd>{page.goKey}</kbd> {page.label}
              </dd>
            ))}
          </div>
          {groups.map((group) => (
            <div key={group.scope} className="shortcuts__group">
              <dt className="shortcuts__scope">{group.scope}</dt>
              {group.shortcuts.map((shortcut) => (
                <dd key={shortcut.key}>
                  <kbd>{shortcut.key}</kbd> {shortcut.description}
                </dd>
              ))}
            </div>
          ))}
        </dl>
      </Dialog>
    </ShortcutsContext.Provider>
  );
}

/**
 * Registers a pane's shortcuts while it is mounted. The list may change every render (its functions
 * close over the pane's state); only its keys and descriptions re-register it.
 */
export function useShortcuts(scope: string, shortcuts: Shortcut[]): void {
  const api = useContext(ShortcutsContext);
  const id = useId();
  const latest = useRef(shortcuts);
  latest.current = shortcuts;
  const signature = shortcuts.map((shortcut) => `${shortcut.key}:${shortcut.description}`).join("|");
  // The signature stands for the list's keys and descriptions; the functions are read through the ref.
  useEffect(() => {
    if (!api) return;
    const stable = latest.current.map((shortcut, index) => ({
      key: shortcut.key,
      description: shortcut.description,
      run: () => latest.current[index]?.run(),
    }));
    api.register(id, { scope, shortcuts: stable });
    return () => api.register(id, null);
  }, [api, id, scope, signature]);
}

/** Opens the shortcut sheet (for a button, so the list is reachable when the keys are switched off). */
export function useShortcutsSheet(): () => void {
  const api = useContext(ShortcutsContext);
  return api?.openSheet ?? (() => {});
}
