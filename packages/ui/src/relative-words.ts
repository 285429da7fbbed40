/**
 * "3 minutes ago", "yesterday", "in 2 hours": English relative time, written out here rather than with
 * `Intl.RelativeTimeFormat`. The console's words are English only, and building that formatter loads ICU's
 * locale data (~30 ms on the main thread of a page that shows a time, measured while the fleet page hydrates).
 * It says what `new Intl.RelativeTimeFormat("en", { numeric: "auto" })` says (relative-words.test.ts).
 */

type Unit = "year" | "month" | "week" | "day" | "hour" | "minute";

const units: [Unit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** The words for -1, 0 and 1 of a unit ("numeric: auto"). */
const named: Record<Unit, [string, string, string]> = {
  year: ["last year", "this year", "next year"],
  month: ["last month", "this month", "next month"],
  week: ["last week", "this week", "next week"],
  day: ["yesterday", "today", "tomorrow"],
  hour: ["1 hour ago", "this hour", "in 1 hour"],
  minute: ["1 minute ago", "this minute", "in 1 minute"],
};

/** `count` of `unit` from now, as English says it: "in 3 days", "5 weeks ago", "last month". */
export function relativeWords(count: number, unit: Unit): string {
  if (count === 0 || Math.abs(count) === 1) return named[unit][Math.sign(count) + 1]!;
  const size = Math.abs(count);
  const amount = `${String(size).replace(/\B(?=(\d{3})+(?!\d))/g, ",")} ${unit}s`;
  return count < 0 ? `${amount} ago` : `in ${amount}`;
}

/** `epochMs` relative to `reference`, to the nearest whole unit; under a minute either way, "just now". */
export function formatRelative(epochMs: number, reference: number): string {
  const delta = epochMs - reference;
  // A server clock a little ahead of the browser's must not read "in 2 minutes".
  if (delta > 0 && delta < 300_000) return "just now";
  if (Math.abs(delta) < 45_000) return "just now";
  for (const [unit, size] of units) {
    if (Math.abs(delta) >= size || unit === "minute") return relativeWords(Math.round(delta / size), unit);
  }
  return "just now";
}
