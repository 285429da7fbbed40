/**
 * The largest secret body the API stores: 4 KiB of JSON, counted in UTF-8 bytes of the stringified
 * object (the vault's rule, restated here only to warn early; the API's answer is the one that counts).
 */
import { SECRET_DATA_LIMIT, secretName } from "@fleet/contracts";

export { SECRET_DATA_LIMIT };

export type SecretData = Record<string, unknown>;

export interface Row {
  id: number;
  key: string;
  value: string;
}

export type ValueMode = "fields" | "json";

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string; focus?: string };

const bytes = new TextEncoder();

/** The body's size as the API measures it: the UTF-8 bytes of the stringified object. */
export function sizeOf(data: SecretData): number {
  return bytes.encode(JSON.stringify(data)).length;
}

export function formatBytes(count: number): string {
  return `${count.toLocaleString("en")} B`;
}

/** Why a name would be refused, in words; null when the contract's pattern accepts it. */
export function checkName(name: string): string | null {
  if (name.length === 0) return "Enter a name.";
  if (name.length > 128) return `Use at most 128 characters; this name has ${name.length}.`;
  if (!/^[A-Za-z_]/.test(name)) return "Start the name with a letter or _.";
  const stray = name.match(/[^A-Za-z0-9_.-]/);
  if (stray) {
    const shown = stray[0] === " " ? "a space" : `“${stray[0]}”`;
    return `Use only letters, digits, _, . and - (the name has ${shown}).`;
  }
  // The contract is the judge; the messages above only say why in plain words.
  return secretName.safeParse(name).success ? null : "This name is not allowed.";
}

const blank = (row: Row) => row.key.trim() === "" && row.value === "";

/** Rows as a secret body; each key once, each with a value. Rows left entirely empty are ignored. */
export function rowsToData(
  rows: Row[],
  ids: { key: (row: Row) => string; value: (row: Row) => string },
): Checked<SecretData> {
  const filled = rows.filter((row) => !blank(row));
  if (filled.length === 0) {
    return fail("Enter the secret’s value.", rows[0] && ids.value(rows[0]));
  }
  const entries = new Map<string, string>();
  for (const row of filled) {
    const position = rows.indexOf(row) + 1;
    const key = row.key.trim();
    if (key === "") return fail(`Row ${position} has a value but no key.`, ids.key(row));
    if (row.value === "") {
      const message =
        rows.length === 1
          ? "Enter the secret’s value."
          : `Enter a value for ${key} (row ${position}), or remove the row.`;
      return fail(message, ids.value(row));
    }
    if (entries.has(key)) return fail(`The key ${key} appears twice; give each key one row.`, ids.key(row));
    entries.set(key, row.value);
  }
  // fromEntries defines own properties, so even a key named __proto__ stays a field.
  const largest = filled.reduce((big, row) => (row.value.length > big.value.length ? row : big));
  return limit(Object.fromEntries(entries), ids.value(largest));
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/**
 * Raw JSON as a secret body. A parse error is reported without the parser's message, which quotes the
 * text around the fault: that text is the secret.
 */
export function jsonToData(text: string): Checked<SecretData> {
  if (text.trim() === "") return fail('Enter a JSON object, such as {"token": "…"}.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail("The JSON does not parse. Check the quotes, commas and braces.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return fail(`The value must be a JSON object ({…}), not ${describe(parsed)}.`);
  }
  const data = parsed as SecretData;
  if (Object.keys(data).length === 0) return fail("The object is empty; a secret needs at least one field.");
  return limit(data);
}

/** The 4 KiB ceiling; `focus` is the field to trim (the largest value). */
function limit(data: SecretData, focus?: string): Checked<SecretData> {
  const size = sizeOf(data);
  if (size > SECRET_DATA_LIMIT) {
    return fail(
      `The value is ${formatBytes(size)} as JSON; a secret holds at most ${formatBytes(SECRET_DATA_LIMIT)} (4 KiB).`,
      focus,
    );
  }
  return { ok: true, value: data };
}

function fail(message: string, focus?: string): { ok: false; message: string; focus?: string } {
  return focus === undefined ? { ok: false, message } : { ok: false, message, focus };
}

/** Rows as pretty JSON, for switching to the JSON view; null when two rows share a key. */
export function rowsToJson(rows: Row[]): Checked<string> {
  const entries = new Map<string, string>();
  for (const row of rows) {
    if (blank(row)) continue;
    const key = row.key.trim();
    if (entries.has(key)) {
      return fail(`The key ${key} appears twice; give each key one row before switching to JSON.`);
    }
    entries.set(key, row.value);
  }
  return { ok: true, value: entries.size === 0 ? "" : JSON.stringify(Object.fromEntries(entries), null, 2) };
}

/** JSON as key/value rows, for switching back; only an object of text values fits in rows. */
export function jsonToRows(text: string): Checked<{ key: string; value: string }[]> {
  if (text.trim() === "") return { ok: true, value: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail("The JSON does not parse, so it cannot be split into rows. Fix it, or keep editing as JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return fail(`Rows hold the fields of a JSON object; this JSON is ${describe(parsed)}.`);
  }
  const entries = Object.entries(parsed);
  const nested = entries.find(([, value]) => typeof value !== "string");
  if (nested) {
    return fail(
      `${nested[0]} holds ${describe(nested[1])}; rows hold text only, so keep editing this value as JSON.`,
    );
  }
  return { ok: true, value: entries.map(([key, value]) => ({ key, value: value as string })) };
}

/** The live size shown under the editor; null while the JSON does not parse. */
export function liveSize(mode: ValueMode, rows: Row[], json: string): number | null {
  if (mode === "fields") {
    return sizeOf(
      Object.fromEntries(rows.filter((row) => !blank(row)).map((row) => [row.key.trim(), row.value])),
    );
  }
  try {
    const parsed: unknown = JSON.parse(json);
    return typeof parsed === "object" && parsed !== null ? sizeOf(parsed as SecretData) : null;
  } catch {
    return null;
  }
}
