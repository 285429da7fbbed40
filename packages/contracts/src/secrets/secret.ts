import { z } from "zod";
import { epochMs } from "../common.ts";

/** The largest secret body, stringified (the spec's ceiling). */
export const SECRET_DATA_LIMIT = 4 * 1024;

export const secretKinds = ["generic", "provider_api_key"] as const;

/** Secret names: 1–128 of letters, digits, `_`, `.`, `-`, starting with a letter or `_`. */
export const secretName = z
  .string({ error: "name must be a string" })
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/, {
    error: "name must be 1 to 128 letters, digits, _, . or -, starting with a letter or _",
  });

/** The body of a secret: a non-empty JSON object of at most 4 KiB stringified. Checked by the vault. */
export const secretData = z.record(z.string(), z.unknown(), { error: "data must be a JSON object" });

/** A secret as lists show it: never its value. */
export const secretItem = z
  .object({ name: z.string(), created_at: epochMs, kind: z.enum(secretKinds) })
  .meta({ id: "Secret" });
