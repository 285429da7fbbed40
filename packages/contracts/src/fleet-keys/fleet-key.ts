import { z } from "zod";
import { keyRateLimit } from "../api-keys/api-key.ts";
import { epochMs } from "../common.ts";

/** A fleet key as lists show it: never the key or its hash. */
export const fleetKeyItem = z
  .object({
    id: z.string(),
    key_name: z.string(),
    /** The one fleet the key acts as. */
    fleet_id: z.string(),
    /** The key's first characters (`agt_a` and 8 more), to tell keys apart. */
    key_prefix: z.string().nullable(),
    created_at: epochMs,
    last_used_at: epochMs.nullable(),
    /** Taken from the key that minted it, when a key did; null: the instance's default. */
    rate_limit: keyRateLimit,
    /** Taken from the key that minted it, when a key did; null: never. */
    expires_at: epochMs.nullable(),
  })
  .meta({ id: "FleetKey" });
export type FleetKeyItem = z.infer<typeof fleetKeyItem>;
