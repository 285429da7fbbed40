import { headerName, MAX_INPUT_DEPTH, type Operation } from "@fleet/contracts";
import fc from "fast-check";
import { smallJson } from "./zod-arbitrary.ts";

/**
 * The hostile requests of hostile-input.property.test.ts: values and field names every contract must
 * refuse (or survive), the mutation that plants one in a generated input, and the /v1 and /trpc request
 * built from it with a note of whether it must be refused.
 */

// ---- Hostile values --------------------------------------------------------------------------------

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

const hostileString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
      .map(([a, b]) => `${a}\u0000${b}`),
  },
  { weight: 3, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), loneSurrogate).map(([a, lone]) => a + lone) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("\u0000", "\udc00\ud800", "a\u202eb", "\u0007\u001b[2J", "\ufeff", "🚀"),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
  { weight: 1, arbitrary: fc.constantFrom(5_000, 70_000, 300_000).map((length) => "x".repeat(length)) },
);

/** A value of another kind than the field takes. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, 2 ** 63, "", [], {}),
  smallJson,
);

/** A marker the request builder swaps for `levels` nested objects (stringify would recurse on them). */
const DEEP = "\u0001deep:";
const deepMarker = fc
  .constantFrom(MAX_INPUT_DEPTH, MAX_INPUT_DEPTH + 1, 100, 5_000, 10_000)
  .map((levels) => `${DEEP}${levels}`);

type Path = (string | number)[];

export type Mutation =
  | { kind: "none" }
  | { kind: "value"; pick: number; value: unknown }
  | { kind: "key"; pick: number; key: string }
  | { kind: "body"; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("value" as const),
      pick: fc.nat(),
      value: fc.oneof(
        { weight: 4, arbitrary: hostileString },
        { weight: 1, arbitrary: deepMarker },
        { weight: 1, arbitrary: wrongType },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("key" as const),
      pick: fc.nat(),
      key: fc.oneof(hostileString, fc.constantFrom("extra", "__proto__", "constructor")),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("body" as const),
      value: fc.constantFrom(null, [], [{}], 0, "text", true),
    }),
  },
);

/** Every place in a value a mutation may land: the root and each nested member. */
function placesIn(value: unknown, path: Path = [], places: Path[] = []): Path[] {
  places.push(path);
  if (typeof value === "object" && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      placesIn(member, [...path, Array.isArray(value) ? Number(key) : key], places);
    }
  }
  return places;
}

function valueAt(root: unknown, path: Path): unknown {
  let at = root;
  for (const part of path) at = (at as Record<string | number, unknown>)[part];
  return at;
}

export function mutate(input: Record<string, unknown>, change: Mutation): Record<string, unknown> {
  if (change.kind === "none" || change.kind === "body") return input;
  const copy = structuredClone(input);
  const places = placesIn(copy);
  if (change.kind === "value") {
    // A hostile string lands where a string was, deep nesting where an object was, when there is one:
    // the rest of the request stays well-formed, so the value travels as far as it can.
    const members = places.slice(1);
    const kind = (value: unknown) =>
      Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
    const wanted = typeof change.value === "string" && !change.value.startsWith(DEEP) ? "string" : "object";
    const alike = members.filter((path) => kind(valueAt(copy, path)) === wanted);
    const pool = alike.length > 0 && typeof change.value !== "object" ? alike : members;
    const path = pool[change.pick % Math.max(1, pool.length)] ?? ["extra"];
    let holder: Record<string | number, unknown> = copy;
    for (const part of path.slice(0, -1)) holder = holder[part] as Record<string | number, unknown>;
    holder[path.at(-1)!] = change.value;
    return copy;
  }
  const containers = places.filter((path) => {
    const at = valueAt(copy, path);
    return typeof at === "object" && at !== null && !Array.isArray(at);
  });
  let holder: Record<string, unknown> = copy;
  for (const part of containers[change.pick % containers.length]!) holder = holder[part] as never;
  holder[change.key] = "value";
  return copy;
}

// ---- Requests --------------------------------------------------------------------------------------

/** Percent-encodes as UTF-8, and a lone surrogate as the three bytes a lax encoder would send. */
function encodeSegment(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  let out = "";
  for (const char of text) {
    const unit = char.codePointAt(0)!;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const byte = (bits: number) => `%${(0x80 | (bits & 0x3f)).toString(16).toUpperCase()}`;
      out += `%ED${byte(unit >> 6)}${byte(unit)}`;
    } else out += encodeURIComponent(char);
  }
  return out;
}

/** JSON text with each deep marker replaced by that many nested objects. */
function jsonWithDepth(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001deep:(\d+)"/g, (_, levels: string) => {
    const n = Number(levels);
    return `${'{"a":'.repeat(n)}{}${"}".repeat(n)}`;
  });
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  rawBody?: string;
  /** Whether the contract must refuse what was sent (see `illFormed`): a 2xx would be a fault. */
  mustRefuse: boolean;
}

const isWellFormed = (text: string) => (text as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * Whether a value sent as JSON holds what every contract refuses: NUL or a lone surrogate in a string
 * or field name, nesting past the bound (a deep marker), or (at the root) something not an object.
 * Written apart from the API's screen, so the test does not take the implementation as its oracle.
 */
function illFormed(value: unknown, root = true): boolean {
  if (typeof value === "string")
    return value.includes("\u0000") || !isWellFormed(value) || value.startsWith(DEEP);
  if (typeof value !== "object" || value === null) return root;
  if (root && Array.isArray(value)) return true;
  return Object.entries(value).some(
    ([key, member]) => key.includes("\u0000") || !isWellFormed(key) || illFormed(member, false),
  );
}

/** Strings in a URL reach the API percent-decoded; a NUL survives that, a lone surrogate does not. */
const urlRefusable = (values: unknown[]) =>
  values.some((value) => typeof value === "string" && value.includes("\u0000"));

export function restRequest(
  op: Operation,
  input: Record<string, unknown>,
  change: Mutation,
  token?: string,
): Sent {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeSegment(input[name]));
  const inUrl = [...Object.keys(op.params), ...Object.keys(op.query)].map((key) => input[key]);
  const query = Object.keys(op.query)
    .filter((key) => input[key] !== undefined)
    .map((key) => `${key}=${encodeSegment(input[key])}`);
  if (query.length > 0) path += `?${query.join("&")}`;
  for (const field of Object.keys(op.requestHeaders)) {
    const value = input[field];
    // fetch cannot send other bytes in a header; Node refuses them before the API would see them.
    if (typeof value === "string" && /^[\x20-\x7e]*$/.test(value)) headers[headerName(field)] = value;
  }
  const located = new Set([
    ...Object.keys(op.params),
    ...Object.keys(op.query),
    ...Object.keys(op.requestHeaders),
  ]);
  const body = Object.fromEntries(Object.entries(input).filter(([key]) => !located.has(key)));
  const takesBody = Object.keys(op.body).length > 0 || Object.keys(body).length > 0;
  const base = { method: op.method, path, headers };
  if (op.method === "GET" || (!takesBody && change.kind !== "body"))
    return { ...base, mustRefuse: urlRefusable(inUrl) };
  headers["content-type"] = "application/json";
  const sentBody = change.kind === "body" ? change.value : body;
  return {
    ...base,
    rawBody: jsonWithDepth(sentBody),
    mustRefuse: urlRefusable(inUrl) || illFormed(sentBody),
  };
}

export function trpcRequest(
  op: Operation,
  input: Record<string, unknown>,
  change: Mutation,
  token?: string,
): Sent {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const sent = change.kind === "body" ? change.value : input;
  const text = jsonWithDepth(sent);
  // In the URL, the JSON text escapes NUL and lone surrogates (\u0000, \ud800): they arrive as sent.
  if (op.method === "GET")
    return {
      method: "GET",
      path: `/trpc/${op.id}?input=${encodeSegment(text)}`,
      headers,
      mustRefuse: illFormed(sent),
    };
  headers["content-type"] = "application/json";
  return { method: "POST", path: `/trpc/${op.id}`, headers, rawBody: text, mustRefuse: illFormed(sent) };
}
