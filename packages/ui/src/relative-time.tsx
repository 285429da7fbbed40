"use client";

import { createContext, type ReactNode, useContext, useId, useState, useSyncExternalStore } from "react";
import { formatRelative } from "./relative-words.ts";

// One shared clock for every timestamp on the page, so relative labels stay current without a timer each.
const TICK_MS = 30_000;
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (timer === undefined) {
    // The clock stood still while nobody listened; React re-reads the snapshot after subscribing.
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** `2025-06-01 14:03:22 UTC`: sortable and unambiguous, for support conversations. */
export function formatUtc(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

// Built once: constructing an Intl formatter costs far more than formatting with it (a list of 50 rows
// built 50, ~1 ms each, on the render after its data arrived).
let localFormat: Intl.DateTimeFormat | undefined;

export function formatLocal(epochMs: number): string {
  // dateStyle/timeStyle cannot be combined with timeZoneName, so the fields are spelled out.
  localFormat ??= new Intl.DateTimeFormat(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "short",
  });
  return localFormat.format(epochMs);
}

const stillClock = () => () => {};

/**
 * "… (local)" for a tooltip: the reader's own zone and locale, which the console's server does not share, so
 * it is written only in the browser (rendered on the server, or while hydrating, it is left out rather than
 * written in the server's zone and then mismatched).
 */
export function LocalTime({ value }: { value: number }) {
  const local = useSyncExternalStore(
    stillClock,
    () => formatLocal(value),
    () => null,
  );
  return local === null ? null : <span>{local} (local)</span>;
}

/** When the server rendered the page (epoch ms): the clock its relative times were written against. */
const RenderedAt = createContext<number | null>(null);

/**
 * Gives the times below the moment the server rendered them, so the server writes "3 days ago" rather than a
 * placeholder, and the browser, hydrating, reads the same words from the same moment (the value travels
 * with the page) before its own clock takes over.
 */
export function RenderedAtProvider({ at, children }: { at: number; children: ReactNode }) {
  return <RenderedAt.Provider value={at}>{children}</RenderedAt.Provider>;
}

/**
 * "3 minutes ago", with the absolute time in UTC and local time on hover or focus. The local time is written
 * when first asked for (the pointer or focus reaching it), not for every time on the page once it hydrates:
 * a fleet page shows a hundred of them, and writing them all built the local formatter (ICU's data) and
 * rendered each time again right after hydration, in the page's busiest moment (issue 17 §5).
 */
export function RelativeTime({ value }: { value: number }) {
  const renderedAt = useContext(RenderedAt);
  const reference = useSyncExternalStore(
    subscribe,
    () => now,
    // On the server and while hydrating: the server's moment, or (under no provider) the time itself,
    // which reads "just now" until the browser's clock takes over.
    () => renderedAt ?? value,
  );
  const tooltipId = useId();
  const [asked, setAsked] = useState(false);
  const ask = () => setAsked(true);
  const label = formatRelative(value, reference);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can reveal the absolute time
    // biome-ignore lint/a11y/noStaticElementInteractions: the handlers only write the tooltip's local time
    <span className="ui-time" tabIndex={0} aria-describedby={tooltipId} onPointerEnter={ask} onFocus={ask}>
      <time dateTime={new Date(value).toISOString()}>{label}</time>
      <span role="tooltip" id={tooltipId} className="ui-tooltip">
        <span>{formatUtc(value)}</span>
        {asked ? <LocalTime value={value} /> : null}
      </span>
    </span>
  );
}
