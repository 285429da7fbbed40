import { cronProblem } from "@fleet/contracts/fleet-libraries/cron";

/**
 * Five-field cron (minute hour day-of-month month day-of-week) in plain English, for people who do not read
 * cron: "At 09:00, Monday through Friday". The expression is checked with the contracts' own rules first;
 * an invalid one has no description.
 */

const monthNames = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const monthCodes = monthNames.map((name) => name.slice(0, 3).toUpperCase());
const dayCodes = dayNames.map((name) => name.slice(0, 3).toUpperCase());

type Kind = "minute" | "hour" | "dom" | "month" | "dow";

/** A field's value as a number: names are accepted where cron accepts them, 7 is Sunday. */
function numberOf(text: string, kind: Kind): number {
  const upper = text.toUpperCase();
  if (kind === "month" && monthCodes.includes(upper)) return monthCodes.indexOf(upper) + 1;
  if (kind === "dow" && dayCodes.includes(upper)) return dayCodes.indexOf(upper);
  const value = Number(text);
  return kind === "dow" && value === 7 ? 0 : value;
}

function nameOf(value: number, kind: Kind): string {
  if (kind === "month") return monthNames[value - 1] ?? String(value);
  if (kind === "dow") return dayNames[value] ?? String(value);
  return String(value);
}

const two = (value: number) => String(value).padStart(2, "0");
const clock = (hour: number, minute: number) => `${two(hour)}:${two(minute)}`;

function ordinal(value: number): string {
  const tens = value % 100;
  if (tens >= 11 && tens <= 13) return `${value}th`;
  return `${value}${["th", "st", "nd", "rd"][value % 10] ?? "th"}`;
}

/** "a, b and c". */
function list(words: string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

interface Item {
  /** A single value. */
  value?: number;
  /** A range's ends, or the start of a stepped value (`5/15`). */
  from?: number;
  to?: number;
  step?: number;
  /** `*` or `*` with a step. */
  every?: boolean;
}

function parseItem(text: string, kind: Kind): Item {
  const [range = "", stepText] = text.split("/");
  const step = stepText === undefined ? undefined : Number(stepText);
  if (range === "*") return step === undefined ? { every: true } : { every: true, step };
  const [from = "", to] = range.split("-");
  if (to === undefined) {
    const value = numberOf(from, kind);
    return step === undefined ? { value } : { from: value, step };
  }
  return { from: numberOf(from, kind), to: numberOf(to, kind), ...(step === undefined ? {} : { step }) };
}

interface Field {
  items: Item[];
  /** The field is `*`: every value. */
  any: boolean;
  /** Every item is one value. */
  singles: number[] | null;
}

function parseField(text: string, kind: Kind): Field {
  const items = text.split(",").map((item) => parseItem(item, kind));
  const any = items.length === 1 && items[0]?.every === true && items[0].step === undefined;
  const singles = items.every((item) => item.value !== undefined) ? items.map((item) => item.value!) : null;
  return { items, any, singles };
}

/** One item of a day, month or minute field in words: "Monday through Friday", "every 2nd day". */
function itemWords(item: Item, kind: Kind, unit: string): string {
  if (item.value !== undefined) return nameOf(item.value, kind);
  const span =
    item.from !== undefined && item.to !== undefined
      ? `${nameOf(item.from, kind)} through ${nameOf(item.to, kind)}`
      : null;
  if (item.step === undefined) return span ?? "";
  const every = item.step === 1 ? `every ${unit}` : `every ${ordinal(item.step)} ${unit}`;
  if (span) return `${every} from ${span}`;
  if (item.from !== undefined) return `${every} starting at ${nameOf(item.from, kind)}`;
  return every;
}

/** "every 10 minutes from minute 0 through 30", "5": one item of the minute field. */
function minuteItem(item: Item): string {
  if (item.value !== undefined) return String(item.value);
  const span = item.to !== undefined ? ` from minute ${item.from} through ${item.to}` : "";
  if (item.step === undefined) return `${item.from} through ${item.to}`;
  const every = item.step === 1 ? "every minute" : `every ${item.step} minutes`;
  if (span) return `${every}${span}`;
  return item.from !== undefined ? `${every} starting at minute ${item.from}` : every;
}

function hourItem(item: Item, bareRange: string): string {
  if (item.value !== undefined) return `the ${two(item.value)}:00 hour`;
  const span =
    item.from !== undefined && item.to !== undefined
      ? `between ${clock(item.from, 0)} and ${clock(item.to, 59)}`
      : null;
  if (item.step === undefined) return span ? `${bareRange}${span}` : "";
  const every = item.step === 1 ? "every hour" : `every ${item.step} hours`;
  if (span) return `${every} ${span}`;
  if (item.from !== undefined) return `${every} from ${clock(item.from, 0)}`;
  return every;
}

/** The hour field, for a minute field of several values: "between 09:00 and 17:59". */
function hoursPhrase(hour: Field, bareRange = ""): string {
  if (hour.any) return "";
  if (hour.singles) return `during the ${list(hour.singles.map((value) => `${two(value)}:00`))} hour`;
  return list(hour.items.map((item) => hourItem(item, bareRange)));
}

/** The time of day in words, and whether it names clock times ("at 09:00"), which read well with days. */
function timePhrase(minute: Field, hour: Field): { text: string; clock: boolean } {
  const minutes = minute.singles;
  const hours = hour.singles;
  // Specific times of day: "at 09:00", "at 08:30 and 17:30".
  if (minutes && hours && minutes.length * hours.length <= 6) {
    return { text: `at ${list(hours.flatMap((h) => minutes.map((m) => clock(h, m))))}`, clock: true };
  }
  const single = minutes?.length === 1 ? minutes[0]! : null;
  if (single !== null) {
    const past = single === 0 ? "on the hour" : `at ${single} past the hour`;
    if (hour.any)
      return {
        text: single === 0 ? "every hour, on the hour" : `every hour at ${single} past`,
        clock: false,
      };
    return { text: `${hoursPhrase(hour, "every hour ")}, ${past}`, clock: false };
  }
  const only = minute.items.length === 1 ? minute.items[0]! : null;
  const minutesText = minute.any
    ? "every minute"
    : only?.every && only.step !== undefined
      ? only.step === 1
        ? "every minute"
        : `every ${only.step} minutes`
      : only && only.step !== undefined
        ? minuteItem(only)
        : `at minutes ${list(minute.items.map(minuteItem))} past the hour`;
  return { text: [minutesText, hoursPhrase(hour)].filter(Boolean).join(", "), clock: false };
}

function daysPhrase(dom: Field, dow: Field): string {
  const dayOfMonth = dom.any
    ? ""
    : dom.singles
      ? `on day ${list(dom.singles.map(String))} of the month`
      : `on ${list(dom.items.map((item) => itemWords(item, "dom", "day")))} of the month`;
  const weekdays = list(dow.items.map((item) => itemWords(item, "dow", "day of the week")));
  const dayOfWeek = dow.any ? "" : dow.singles ? `on ${weekdays}` : weekdays;
  // With both restricted, cron fires on either (a union), not only days that satisfy both.
  if (dayOfMonth && dayOfWeek) return `${dayOfMonth} or ${dayOfWeek}`;
  return dayOfMonth || dayOfWeek;
}

function monthsPhrase(month: Field): string {
  if (month.any) return "";
  const words = list(month.items.map((item) => itemWords(item, "month", "month")));
  return words.startsWith("every") ? words : `in ${words}`;
}

/** The expression in words, or null when it is not a valid five-field expression. */
export function describeCron(expression: string): string | null {
  if (cronProblem(expression) !== null) return null;
  const [m = "", h = "", dom = "", month = "", dow = ""] = expression.trim().split(/\s+/);
  const minute = parseField(m, "minute");
  const hour = parseField(h, "hour");
  const days = daysPhrase(parseField(dom, "dom"), parseField(dow, "dow"));
  const months = monthsPhrase(parseField(month, "month"));
  const time = timePhrase(minute, hour);
  const parts = [time.text, days || (time.clock && !months ? "every day" : ""), months].filter(Boolean);
  const text = parts.join(", ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
