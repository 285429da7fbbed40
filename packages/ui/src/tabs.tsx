"use client";

import { type KeyboardEvent, type ReactNode, useId, useRef } from "react";

export interface Tab<T extends string> {
  value: T;
  label: ReactNode;
}

export interface TabsProps<T extends string> {
  /** The tab list's name ("Fleet activity"). */
  label: string;
  tabs: readonly Tab<T>[];
  value: T;
  /** The app keeps the choice (in the URL, typically); the tabs only report it. */
  onChange: (value: T) => void;
  /** The selected tab's panel. */
  children: ReactNode;
}

/**
 * Tabs on the ARIA pattern: one tab stop for the list, arrow keys (and Home/End) move and select, the panel
 * follows in the tab order. Only the selected panel is rendered.
 */
export function Tabs<T extends string>({ label, tabs, value, onChange, children }: TabsProps<T>) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (tab: T) => `${base}-tab-${tab}`;
  const panelId = `${base}-panel`;

  function move(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((tab) => tab.value === value);
    const last = tabs.length - 1;
    const target =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    const next = tabs[target]!.value;
    onChange(next);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(next))}`)?.focus();
  }

  return (
    <div className="ui-tabs">
      <div ref={list} className="ui-tabs__list" role="tablist" aria-label={label} onKeyDown={move}>
        {tabs.map((tab) => {
          const selected = tab.value === value;
          return (
            <button
              key={tab.value}
              id={tabId(tab.value)}
              type="button"
              role="tab"
              className="ui-tabs__tab"
              aria-selected={selected}
              aria-controls={selected ? panelId : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(tab.value)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div id={panelId} className="ui-tabs__panel" role="tabpanel" aria-labelledby={tabId(value)}>
        {children}
      </div>
    </div>
  );
}
