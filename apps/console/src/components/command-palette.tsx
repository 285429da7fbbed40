"use client";

import { Button, Dialog } from "@fleet/ui";
import { type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { CommandsContext, type PageAction } from "../lib/commands.tsx";
import { Palette } from "./palette.tsx";
import "./shell.css";
import "./command-palette.css";

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
