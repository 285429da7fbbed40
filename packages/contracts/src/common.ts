import { z } from "zod";

/**
 * A UUIDv7 in a path, query or body; the message names the field. Read in its one spelling, lower case: an
 * id is one id however it is spelled, so what keys on it (a stream's subscription, a rate-limit bucket, a
 * comparison in code) sees the same string the database does.
 */
export function uuidv7(field: string) {
  return z.uuid({ version: "v7", error: `${field} must be a valid UUIDv7` }).toLowerCase();
}

/** An epoch-milliseconds timestamp. */
export const epochMs = z.number().int();

/**
 * A query integer. Query strings arrive as text over REST and as numbers over /trpc; both parse here.
 * An empty value (`?limit=`) is refused, not read as 0.
 */
export function queryInt(field: string, min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value),
    z
      .number({ error: `${field} must be an integer` })
      .int({ error: `${field} must be an integer` })
      .min(min, { error: `${field} must be from ${min} to ${max}` })
      .max(max, { error: `${field} must be from ${min} to ${max}` }),
  );
}

/** An opaque cursor as the server issued it. */
export const cursorParam = z
  .string()
  .min(1, { error: "starting_after must be a cursor this route issued" })
  .max(512);

/** A person-facing name: trimmed, no control or bidirectional-override characters. */
export function displayName(field: string, max: number) {
  return (
    z
      .string({ error: `${field} must be a string` })
      .trim()
      .min(1, { error: `${field} must not be empty` })
      .max(max, { error: `${field} must be at most ${max} characters` })
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
      .refine((value) => !/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(value), {
        error: `${field} must not contain control or bidirectional characters`,
      })
  );
}

/** The page envelope of cursor-paged lists. */
export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), next_cursor: z.string().nullable() });
}

/**
 * A query set of known tags, comma-separated (`status=paused,stopped`): a union. An unrecognised tag is
 * refused whole, so a typo never reads as "no filter".
 */
export function tagSet<const T extends readonly string[]>(field: string, tags: T) {
  return z
    .string()
    .max(300, { error: `${field} must be at most 300 characters` })
    .transform((value, ctx) => {
      const parts = value.split(",").map((tag) => tag.trim());
      const unknown = parts.filter((tag) => !(tags as readonly string[]).includes(tag));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `${field} has unrecognised values: ${unknown.join(", ")} (known: ${tags.join(", ")})`,
        });
        return z.NEVER;
      }
      return [...new Set(parts)].sort() as T[number][];
    });
}
