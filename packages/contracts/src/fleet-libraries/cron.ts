/**
 * Five-field cron expressions (minute, hour, day of month, month, day of week) and IANA time zones, as
 * fleet triggers and schedules take them. Shared with the console, so a form refuses what the API would.
 */

interface CronField {
  name: string;
  min: number;
  max: number;
  /** Three-letter names the field also accepts, numbered from `min`. */
  names?: readonly string[];
}

const months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const weekdays = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

const cronFields: readonly CronField[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: months },
  // 7 is Sunday too, as most cron implementations read it.
  { name: "day of week", min: 0, max: 7, names: weekdays },
];

function fieldValue(text: string, field: CronField): number | null {
  if (/^\d{1,2}$/.test(text)) {
    const value = Number(text);
    return value >= field.min && value <= field.max ? value : null;
  }
  const index = field.names?.indexOf(text.toUpperCase()) ?? -1;
  return index < 0 ? null : field.min + index;
}

/** "0–59", "1–12 or JAN–DEC": what a field takes, as every refusal of it says. */
function fieldRange(field: CronField): string {
  const names = field.names ? ` or ${field.names[0]}–${field.names.at(-1)}` : "";
  return `${field.min}–${field.max}${names}`;
}

/** Why one comma-separated item of a field is not valid, or null when it is. */
function itemProblem(item: string, field: CronField): string | null {
  const [range, step, extra] = item.split("/");
  if (extra !== undefined || range === undefined || range === "") {
    return `${field.name} "${item}" must be *, a value, a range a-b or a list of them, each with an optional step /n`;
  }
  if (step !== undefined && !(/^\d{1,2}$/.test(step) && Number(step) >= 1 && Number(step) <= field.max)) {
    return `${field.name} step must be 1–${field.max}, not "${step}"`;
  }
  if (range === "*") return null;
  const [from, to, more] = range.split("-");
  if (more !== undefined) return `${field.name} range "${range}" must be two values a-b`;
  const start = fieldValue(from ?? "", field);
  if (start === null) return `${field.name} must be ${fieldRange(field)}, not "${from}"`;
  if (to === undefined) return null;
  const end = fieldValue(to, field);
  if (end === null) return `${field.name} must be ${fieldRange(field)}, not "${to}"`;
  return start <= end ? null : `${field.name} range "${range}" must not start after it ends`;
}

/**
 * Why `expression` is not a five-field cron expression, or null when it is: the first field at fault and
 * the values it takes ("minute must be 0–59, not \"61\""), so the API's refusal and the console's form say
 * the same words. Each field takes `*`, a value, a range `a-b`, a step `/n` after either, and
 * comma-separated lists of those; month and day of week also take three-letter English names. Macros
 * (`@daily`) and seconds fields are not accepted.
 */
export function cronProblem(expression: string): string | null {
  const parts = expression.trim().split(/\s+/);
  if (expression.trim() === "" || parts.length !== 5) {
    return "must be five fields: minute hour day-of-month month day-of-week";
  }
  for (const [index, part] of parts.entries()) {
    const field = cronFields[index]!;
    for (const item of part.split(",")) {
      const problem = itemProblem(item, field);
      if (problem !== null) return problem;
    }
  }
  return null;
}

/** Whether a problem of `cronProblem` is the count of fields, which a form says only once typing stops. */
export function isFieldCountProblem(problem: string): boolean {
  return problem.startsWith("must be five fields");
}

/** The sentence the API and the console both say for a cron they refuse: "Cron minute must be 0–59, not \"61\"." */
export function cronSentence(problem: string): string {
  return `Cron ${problem}.`;
}

/**
 * Whether `zone` is an IANA time-zone name the runtime knows (`Europe/Berlin`, `UTC`, also the database's
 * backward-compatible links such as `US/Eastern`). Offsets such as `+01:00` are not zone names.
 */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone) || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
