"use client";

import {
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { MoreIcon } from "./icons.tsx";

export interface MenuAction {
  /** The item's words, verb first ("Kill fleet"). */
  label: string;
  onSelect: () => void;
  icon?: ReactNode;
  tone?: "default" | "danger";
}

export interface ActionMenuProps {
  /** The menu button's accessible name, verb + object ("More actions for fleet Echo"). */
  label: string;
  actions: readonly MenuAction[];
}

/**
 * A menu button on the ARIA pattern: Enter, Space or ArrowDown opens it on its first item, arrows and
 * Home/End move, Esc closes it and gives the focus back, choosing an item closes it before acting (so a
 * dialog the item opens returns the focus to the button). The menu sits in the top layer (a popover),
 * so a scrolling table never clips it.
 */
export function ActionMenu({ label, actions }: ActionMenuProps) {
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [position, setPosition] = useState<{ top: number; right: number } | null>(null);

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useLayoutEffect(() => {
    const element = menu.current;
    if (!element) return;
    if (open && !element.matches(":popover-open")) {
      const rect = button.current!.getBoundingClientRect();
      setPosition({ top: rect.bottom + 4, right: window.innerWidth - rect.right });
      element.showPopover();
      items()[0]?.focus();
    } else if (!open && element.matches(":popover-open")) {
      element.hidePopover();
    }
  }, [open]);

  // The menu is placed for where the button was; a scroll or resize moves the button, so close instead.
  // A scroll event that arrives late (from scrolling the button into view just before it was pressed)
  // moved nothing, and keeps the menu.
  useEffect(() => {
    if (!open) return;
    const placed = button.current?.getBoundingClientRect();
    const close = () => setOpen(false);
    const onScroll = () => {
      const now = button.current?.getBoundingClientRect();
      if (!placed || !now || now.top !== placed.top || now.right !== placed.right) close();
    };
    window.addEventListener("resize", close);
    window.addEventListener("scroll", onScroll, true);
    return () => {
      window.removeEventListener("resize", close);
      window.removeEventListener("scroll", onScroll, true);
    };
  }, [open]);

  function closeAndFocus() {
    setOpen(false);
    button.current?.focus();
  }

  function onMenuKey(event: KeyboardEvent<HTMLDivElement>) {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => {
      event.preventDefault();
      all[(index + all.length) % all.length]?.focus();
    };
    if (event.key === "ArrowDown") go(at + 1);
    else if (event.key === "ArrowUp") go(at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(all.length - 1);
    else if (event.key === "Escape") {
      event.preventDefault();
      closeAndFocus();
    } else if (event.key === "Tab") setOpen(false);
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        className="ui-icon-button ui-action-menu__button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <MoreIcon />
      </button>
      <div
        ref={menu}
        id={menuId}
        role="menu"
        aria-label={label}
        className="ui-action-menu"
        // Auto popovers close on an outside click; the toggle event keeps the state in step.
        popover="auto"
        onToggle={(event) => {
          if ((event as unknown as ToggleEvent).newState === "closed") setOpen(false);
        }}
        onKeyDown={onMenuKey}
        style={position ? { top: position.top, right: position.right } : undefined}
      >
        {actions.map((action) => (
          <button
            key={action.label}
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="ui-action-menu__item"
            data-tone={action.tone ?? "default"}
            onClick={() => {
              closeAndFocus();
              action.onSelect();
            }}
          >
            {action.icon}
            {action.label}
          </button>
        ))}
      </div>
    </>
  );
}
