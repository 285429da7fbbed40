import { z } from "zod";
import { epochMs } from "../common.ts";

/** Providers the catalogue and the platform default may name. */
export const modelProviders = ["anthropic", "openai", "openai_compatible"] as const;
export type ModelProvider = (typeof modelProviders)[number];

/** Providers reached at their own well-known endpoint: a base_url is refused on them, a key required. */
export const namedProviders = ["anthropic", "openai"] as const;

/** What a tenant may choose: a provider with its own key, or `platform` (the platform default's). */
export const tenantProviderChoices = ["platform", ...modelProviders] as const;
export type TenantProviderChoice = (typeof tenantProviderChoices)[number];

/** An https base URL; whether it is public is the service's check (UZ-PROVIDER-005). */
export const baseUrl = z
  .string({ error: "base_url must be a string" })
  .min(1, { error: "base_url must not be empty" })
  .max(2048, { error: "base_url must be at most 2048 characters" });

/** A provider API key: printable ASCII without spaces. The message never repeats the value. */
export const providerApiKey = z
  .string({ error: "api_key must be a string" })
  .regex(/^[\x21-\x7e]{1,4096}$/, { error: "api_key must be 1 to 4096 printable characters without spaces" });

/** A tenant's provider as it reads back: never the key, only whether one is held. */
export const tenantProvider = z
  .object({
    provider: z.enum(tenantProviderChoices),
    model: z.string(),
    base_url: z.string().nullable(),
    has_api_key: z.boolean(),
    updated_at: epochMs,
  })
  .meta({ id: "TenantProvider" });
