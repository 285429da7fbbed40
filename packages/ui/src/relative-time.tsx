"use client";

import { useId, useSyncExternalStore } from "react";

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

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];
const relativeFormat = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

export function formatRelative(epochMs: number, reference: number): string {
  const delta = epochMs - reference;
  // A server clock a little ahead of the browser's must not read "in 2 minutes".
  if (delta > 0 && delta < 300_000) return "just now";
  if (Math.abs(delta) < 45_000) return "just now";
  for (const [unit, size] of units) {
    if (Math.abs(delta) >= size || unit === "minute") {
      return relativeFormat.format(Math.round(delta / size), unit);
    }
  }
  return "just now";
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

/** "3 minutes ago", with the absolute time in UTC and local time on hover or focus. */
export function RelativeTime({ value }: { value: number }) {
  const reference = useSyncExternalStore(
    subscribe,
    () => now,
    // Rendered on the server, a time reads "just now" until the browser's clock takes over.
    () => value,
  );
  const tooltipId = useId();
  const label = formatRelative(value, reference);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can reveal the absolute time
    <span className="ui-time" tabIndex={0} aria-describedby={tooltipId}>
      <time dateTime={new Date(value).toISOString()}>{label}</time>
      <span role="tooltip" id={tooltipId} className="ui-tooltip">
        <span>{formatUtc(value)}</span>
        <LocalTime value={value} />
      </span>
    </span>
  );
}
