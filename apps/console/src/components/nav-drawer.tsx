"use client";

import { CloseIcon, MenuIcon } from "@fleet/ui";
import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import "./nav-drawer.css";

/**
 * The sidebar's contents (navigation, settings, who is signed in). On a wide screen they are always shown
 * and the button is hidden; below 900 px (shell.css) they fold behind a menu button, a disclosure: opening
 * moves focus to the first link, Escape or a click outside closes and returns focus to the button, and
 * following a link closes it.
 */
export function NavDrawer({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const pathname = usePathname();

  // A link followed: the new page is shown, not the menu over it.
  useEffect(() => {
    void pathname;
    setOpen(false);
  }, [pathname]);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>("a[href], button, input")?.focus();
    const close = (returnFocus: boolean) => {
      setOpen(false);
      if (returnFocus) button.current?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      // An open dialog or menu takes its own Escape first: a menu prevents its default, a native dialog's
      // close is that default (preventing it here would hold the palette open over the menu).
      if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
      event.preventDefault();
      close(true);
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (panel.current?.contains(target) || button.current?.contains(target)) return;
      close(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  return (
    <>
      <button
        ref={button}
        type="button"
        className="ui-icon-button shell__menu-button"
        aria-expanded={open}
        aria-controls={id}
        aria-label="Navigation menu"
        onClick={() => setOpen((was) => !was)}
      >
        {open ? <CloseIcon /> : <MenuIcon />}
      </button>
      <div ref={panel} id={id} className="shell__menu" data-open={open ? "" : undefined}>
        {children}
      </div>
    </>
  );
}
