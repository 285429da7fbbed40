"use client";

import { useId } from "react";
import { formatUtc, LocalTime } from "./relative-time.tsx";

/** One formatter per zone, built on first use: building one costs far more than formatting with it. */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** `Mon 2 Jun, 09:00 CEST` in the zone named: a wall-clock time as the people of that zone read it. */
export function formatInZone(epochMs: number, timeZone: string): string {
  try {
    let format = zoneFormats.get(timeZone);
    if (format === undefined) {
      format = new Intl.DateTimeFormat("en-GB", {
        weekday: "short",
        day: "numeric",
        month: "short",
        hour: "2-digit",
        minute: "2-digit",
        timeZone,
        timeZoneName: "short",
      });
      zoneFormats.set(timeZone, format);
    }
    return format.format(epochMs);
  } catch {
    // A zone this browser does not know: UTC is still exact.
    return formatUtc(epochMs);
  }
}

/**
 * An instant as a schedule's zone sees it, with UTC beside it (so two people in different zones agree on
 * what they read) and the reader's local time in a tooltip.
 */
export function ZonedTime({ value, timeZone }: { value: number; timeZone: string }) {
  const tooltipId = useId();
  const utc = timeZone === "UTC" || timeZone === "Etc/UTC";
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so keyboard users can reveal the local time
    <span className="ui-time ui-zoned-time" tabIndex={0} aria-describedby={tooltipId}>
      <time dateTime={new Date(value).toISOString()}>
        <span className="ui-zoned-time__zone">
          {formatInZone(value, timeZone)}
          {utc ? null : <span className="ui-zoned-time__name"> ({timeZone})</span>}
        </span>
        {utc ? null : <span className="ui-zoned-time__utc">{formatUtc(value)}</span>}
      </time>
      <span role="tooltip" id={tooltipId} className="ui-tooltip">
        <span>{formatUtc(value)}</span>
        <LocalTime value={value} />
      </span>
    </span>
  );
}
