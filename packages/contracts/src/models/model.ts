import { z } from "zod";
import { cursorParam, epochMs, queryInt } from "../common.ts";

/** The most rows one catalogue page holds, whatever `limit` asks (the spec's models page ceiling). */
export const MODELS_PAGE_MAX = 50;

const nanos = (field: string) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .min(0, { error: `${field} must not be negative` })
    .max(Number.MAX_SAFE_INTEGER, { error: `${field} is too large` });

/** The fields a catalogue row's price and size are set with. */
export const modelPricing = {
  context_cap_tokens: z
    .number({ error: "context_cap_tokens must be an integer" })
    .int({ error: "context_cap_tokens must be an integer" })
    .min(1, { error: "context_cap_tokens must be from 1 to 2147483647" })
    .max(2_147_483_647, { error: "context_cap_tokens must be from 1 to 2147483647" }),
  input_nanos_per_mtok: nanos("input_nanos_per_mtok"),
  cached_input_nanos_per_mtok: nanos("cached_input_nanos_per_mtok"),
  output_nanos_per_mtok: nanos("output_nanos_per_mtok"),
};

/** A model's name at its provider: printable, no spaces, 1–200 characters. */
export const MODEL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

export const modelName = (field: string) =>
  z.string({ error: `${field} must be a string` }).regex(MODEL_NAME_PATTERN, {
    error: `${field} must be 1 to 200 letters, digits or . _ : / @ + -, starting with a letter or digit`,
  });

/** A provider as a request names it; whether the deployment knows it is the service's check (UZ-PROVIDER-001). */
export const providerName = z
  .string({ error: "provider must be a string" })
  .min(1, { error: "provider must not be empty" })
  .max(64, { error: "provider must be at most 64 characters" });

/** Paging and the provider filter, shared by the tenant and operator catalogue reads. */
export const catalogueQuery = {
  provider: providerName.optional(),
  starting_after: cursorParam.optional(),
  limit: queryInt("limit", 1, 100).default(MODELS_PAGE_MAX),
};

/** A catalogue row as tenants read it: `id` is the model's name. */
export const catalogueModel = z
  .object({
    id: z.string(),
    provider: z.string(),
    context_cap_tokens: z.number().int(),
    input_nanos_per_mtok: z.number().int(),
    cached_input_nanos_per_mtok: z.number().int(),
    output_nanos_per_mtok: z.number().int(),
  })
  .meta({ id: "CatalogueModel" });

/** A catalogue row as operators manage it, addressed by `uid`. */
export const adminModel = z
  .object({
    uid: z.string(),
    provider: z.string(),
    model_id: z.string(),
    context_cap_tokens: z.number().int(),
    input_nanos_per_mtok: z.number().int(),
    cached_input_nanos_per_mtok: z.number().int(),
    output_nanos_per_mtok: z.number().int(),
    created_at: epochMs,
    updated_at: epochMs,
  })
  .meta({ id: "AdminModel" });
export type AdminModel = z.infer<typeof adminModel>;
