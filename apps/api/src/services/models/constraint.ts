import { databaseError } from "../context.ts";

/** The references from a default to its catalogue row. */
export const PLATFORM_MODEL_FK = "platform_keys_model_uid_models_uid_fk";
export const TENANT_MODEL_FK = "tenant_providers_model_uid_models_uid_fk";

/**
 * The constraint a reference refused, wherever the driver puts the error: a row pointing at nothing
 * (23503, foreign_key_violation) or a delete of a row something points at (23001, restrict_violation,
 * which ON DELETE RESTRICT raises). Null when the failure is something else.
 */
export function foreignKeyViolation(error: unknown): string | null {
  const found = databaseError(error, /^(23503|23001)$/);
  return found === null ? null : (found.constraint ?? "");
}
