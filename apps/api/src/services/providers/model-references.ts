/** The references from a default to its catalogue row. */
export const PLATFORM_MODEL_FK = "platform_keys_model_uid_models_uid_fk";
export const TENANT_MODEL_FK = "tenant_providers_model_uid_models_uid_fk";
