import { z } from "zod";
import { displayName, epochMs } from "../common.ts";

/**
 * The user code's alphabet: twenty consonants, no vowels (no words spelled by accident), no digits (no
 * 0/O or 1/I to confuse). Eight of them give 20^8 ≈ 2^34.6 codes, shown as two groups of four.
 */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
export const USER_CODE_LENGTH = 8;

/**
 * A user code as a person types it: case, spaces and dashes do not matter. Answers the eight letters, or
 * refuses a code that cannot be one (not counted as a wrong code: it could name nothing).
 */
export const userCodeInput = z
  .string({ error: "user_code must be a string" })
  .max(32, { error: "user_code must be at most 32 characters" })
  .transform((value) => value.toUpperCase().replace(/[\s-]/g, ""))
  .refine((value) => new RegExp(`^[${USER_CODE_ALPHABET}]{${USER_CODE_LENGTH}}$`).test(value), {
    error: `user_code must be ${USER_CODE_LENGTH} letters of ${USER_CODE_ALPHABET} (a dash between the halves is fine)`,
  });

/** How a user code is shown: `BCDF-GHJK`. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What the CLI says it is, shown to the person who approves. */
export const clientName = displayName("client_name", 128);
export const clientHost = displayName("client_host", 253);

/** A command-line sign-in as the person asked to approve it sees it. */
export const deviceSignInView = z
  .object({
    user_code: z.string(),
    client_name: z.string(),
    client_host: z.string().nullable(),
    requested_at: epochMs,
    expires_at: epochMs,
    status: z.enum(["pending", "approved", "denied"]),
  })
  .meta({ id: "DeviceSignIn" });
export type DeviceSignInView = z.infer<typeof deviceSignInView>;
