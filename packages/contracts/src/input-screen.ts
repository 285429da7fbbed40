/**
 * The screen every operation's input passes before its schema parses it (see `defineOperation`): input
 * the database cannot hold faithfully, or that would overflow recursive code, is refused here with the
 * field it sits in, on /v1 and /trpc alike.
 *
 * - No string (value or field name) may hold U+0000: PostgreSQL `text` and `jsonb` cannot store it.
 * - No string may hold a lone UTF-16 surrogate: it is not Unicode, and PostgreSQL would store U+FFFD in
 *   its place, so two distinct names could collide.
 * - No object or array may sit deeper than `MAX_INPUT_DEPTH` levels, the input itself being level 1.
 *
 * The walk is iterative: it runs on a value `JSON.parse` built, before zod or any other recursive code
 * sees it, so depth alone cannot overflow the stack.
 */
export const MAX_INPUT_DEPTH = 32;

/** Any NUL or surrogate code unit: the cheap test nearly every string passes at once. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding U+0000 is the point
const SUSPECT = /[\u0000\ud800-\udfff]/;

type StringFault = "nul" | "surrogate";

/** Why a string is refused, or null when it is well-formed Unicode without NUL. */
function stringFault(value: string): StringFault | null {
  if (!SUSPECT.test(value)) return null;
  if (value.includes("\u0000")) return "nul";
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = i + 1 < value.length ? value.charCodeAt(i + 1) : 0;
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++; // a well-formed pair
      continue;
    }
    return "surrogate";
  }
  return null;
}

const valueMessages: Record<StringFault, string> = {
  nul: "must not contain the NUL character (U+0000)",
  surrogate: "must be well-formed Unicode (it holds a lone UTF-16 surrogate)",
};
const keyMessages: Record<StringFault, string> = {
  nul: "has a field name containing the NUL character (U+0000)",
  surrogate: "has a field name that is not well-formed Unicode (a lone UTF-16 surrogate)",
};

export interface InputFault {
  /** Where the fault sits, from the input's root: field names and array indexes. */
  path: (string | number)[];
  /** Completes a sentence whose subject is the field (or "The body" at the root). */
  message: string;
}

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | null;
  key: string | number;
}

function pathOf(frame: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Frame | null = frame; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Whether anything in the value may be at fault: the hot path, without paths or allocations per member.
 * Nearly every input passes here, and only a suspect one is walked again to name the field.
 */
function suspect(input: object): boolean {
  const stack: object[] = [input];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const container = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_INPUT_DEPTH) return true;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) {
        const value: unknown = container[i];
        if (typeof value === "string") {
          if (SUSPECT.test(value)) return true;
        } else if (typeof value === "object" && value !== null) {
          stack.push(value);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    const keys = Object.keys(container);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (SUSPECT.test(key)) return true;
      const value: unknown = (container as Record<string, unknown>)[key];
      if (typeof value === "string") {
        if (SUSPECT.test(value)) return true;
      } else if (typeof value === "object" && value !== null) {
        stack.push(value);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** The first fault in an input value, or null when it passes. */
export function screenInput(input: unknown): InputFault | null {
  if (typeof input === "object" && input !== null && !suspect(input)) return null;
  if (typeof input === "string") {
    const fault = stringFault(input);
    return fault ? { path: [], message: valueMessages[fault] } : null;
  }
  if (typeof input !== "object" || input === null) return null;
  const stack: Frame[] = [{ value: input, depth: 1, parent: null, key: "" }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > MAX_INPUT_DEPTH) {
      return { path: pathOf(frame), message: `must not nest more than ${MAX_INPUT_DEPTH} levels deep` };
    }
    const container = frame.value as Record<string, unknown> | unknown[];
    const isArray = Array.isArray(container);
    for (const key in container) {
      if (!isArray) {
        const fault = stringFault(key);
        if (fault) return { path: pathOf(frame), message: keyMessages[fault] };
      }
      const value = (container as Record<string, unknown>)[key];
      if (typeof value === "string") {
        const fault = stringFault(value);
        if (fault) {
          const path = pathOf(frame);
          path.push(isArray ? Number(key) : key);
          return { path, message: valueMessages[fault] };
        }
      } else if (typeof value === "object" && value !== null) {
        stack.push({ value, depth: frame.depth + 1, parent: frame, key: isArray ? Number(key) : key });
      }
    }
  }
  return null;
}
