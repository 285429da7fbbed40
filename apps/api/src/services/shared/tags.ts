import { createHash } from "node:crypto";

function digest(text: string, length: number): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, length);
}

/** A strong entity tag (quoted) over the given parts: equal parts, equal tag. */
export function strongTag(...parts: unknown[]): string {
  return `"${digest(JSON.stringify(parts), 22)}"`;
}

/**
 * What a filtered list's cursors are bound to: the list and its filters, hashed so the cursor stays
 * short. A cursor issued under other filters is then refused rather than misread.
 */
export function filteredBinding(list: string, filters: unknown[]): string {
  return `${list}:${digest(JSON.stringify(filters), 16)}`;
}

/** Optional output fields are absent, not null, when unset. */
export function present<T>(key: string, value: T | null): Record<string, T> {
  return value === null ? {} : { [key]: value };
}
