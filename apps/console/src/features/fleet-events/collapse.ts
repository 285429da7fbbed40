import type { FleetEventItem } from "./event-labels.ts";

/** A run of events shown as one row: a single event, or identical failures in a row. */
export interface EventGroup {
  /** The newest event of the run; the group's row shows it. */
  head: FleetEventItem;
  /** The older repeats, newest first (empty for a single event). */
  repeats: FleetEventItem[];
}

/** Failures are "identical" when the same kind of event failed the same way. */
function sameFailure(a: FleetEventItem, b: FleetEventItem): boolean {
  return (
    a.status === "fleet_error" &&
    b.status === "fleet_error" &&
    a.event_type === b.event_type &&
    a.actor === b.actor &&
    (a.failure_label ?? "") === (b.failure_label ?? "")
  );
}

/**
 * Collapses consecutive identical failures (a fleet failing the same way on every cron tick, say) into one
 * row with a count, so one problem does not push everything else off the page. Order is kept.
 */
export function collapseFailures(events: readonly FleetEventItem[]): EventGroup[] {
  const groups: EventGroup[] = [];
  for (const event of events) {
    const last = groups.at(-1);
    if (last && sameFailure(last.head, event)) last.repeats.push(event);
    else groups.push({ head: event, repeats: [] });
  }
  return groups;
}
