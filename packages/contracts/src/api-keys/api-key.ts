import { z } from "zod";
import { epochMs } from "../common.ts";

export const apiKeySorts = ["created_at", "-created_at", "key_name", "-key_name"] as const;
export type ApiKeySort = (typeof apiKeySorts)[number];

/** A tenant API key as lists show it: never the key or its hash. */
export const apiKeyItem = z
  .object({
    id: z.string(),
    key_name: z.string(),
    description: z.string(),
    active: z.boolean(),
    created_at: epochMs,
    last_used_at: epochMs.nullable(),
    revoked_at: epochMs.nullable(),
  })
  .meta({ id: "ApiKey" });
export type ApiKeyItem = z.infer<typeof apiKeyItem>;
