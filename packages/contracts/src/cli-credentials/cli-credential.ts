import { z } from "zod";
import { epochMs } from "../common.ts";

/** A command-line credential as its person's list shows it: never the token. */
export const cliCredentialItem = z
  .object({
    id: z.string(),
    client_name: z.string(),
    client_host: z.string().nullable(),
    created_at: epochMs,
    expires_at: epochMs,
    revoked_at: epochMs.nullable(),
    /** True for the credential this request was made with. */
    current: z.boolean(),
  })
  .meta({ id: "CliCredential" });
export type CliCredentialItem = z.infer<typeof cliCredentialItem>;
