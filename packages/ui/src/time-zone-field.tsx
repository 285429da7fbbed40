"use client";

import { useMemo } from "react";
import { SelectField } from "./field.tsx";

/** The IANA zones this browser knows, grouped by region ("America", "Europe", …). */
function zoneGroups(): [string, string[]][] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const groups = new Map<string, string[]>();
  for (const zone of zones) {
    const region = zone.includes("/") ? zone.slice(0, zone.indexOf("/")) : "Other";
    groups.set(region, [...(groups.get(region) ?? []), zone]);
  }
  return Array.from(groups.entries());
}

/** The reader's own zone, as the browser reports it. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export interface TimeZoneFieldProps {
  label: string;
  value: string;
  onChange: (zone: string) => void;
  hint?: string;
  name?: string;
}

/**
 * A time-zone picker over `Intl.supportedValuesOf('timeZone')`: UTC and the reader's zone first, then every
 * zone by region. Native select, so type-ahead ("Europe/Ber…") and screen readers work as usual. A value the
 * list lacks (a backward-compatible link such as US/Eastern) is kept and shown as it is.
 */
export function TimeZoneField({ label, value, onChange, hint, name }: TimeZoneFieldProps) {
  const groups = useMemo(zoneGroups, []);
  const local = useMemo(browserTimeZone, []);
  const listed = value === "UTC" || groups.some(([, zones]) => zones.includes(value));
  return (
    <SelectField
      label={label}
      name={name}
      value={value}
      hint={hint}
      onChange={(event) => onChange(event.target.value)}
    >
      {listed ? null : <option value={value}>{value}</option>}
      <option value="UTC">UTC</option>
      {local !== "UTC" ? <option value={local}>{`${local} (this browser's zone)`}</option> : null}
      {groups.map(([region, zones]) => (
        <optgroup key={region} label={region}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll("_", " ")}
            </option>
          ))}
        </optgroup>
      ))}
    </SelectField>
  );
}
