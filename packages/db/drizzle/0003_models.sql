CREATE TABLE "model_catalogue" (
	"id" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "model_catalogue_one_row" CHECK ("model_catalogue"."id" = 'catalogue')
);
--> statement-breakpoint
CREATE TABLE "models" (
	"uid" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"model_id" text NOT NULL,
	"context_cap_tokens" integer NOT NULL,
	"input_nanos_per_mtok" bigint NOT NULL,
	"cached_input_nanos_per_mtok" bigint NOT NULL,
	"output_nanos_per_mtok" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "models_provider" CHECK ("models"."provider" in ('anthropic', 'openai', 'openai_compatible')),
	CONSTRAINT "models_model_id" CHECK (char_length("models"."model_id") between 1 and 200),
	CONSTRAINT "models_context_cap" CHECK ("models"."context_cap_tokens" > 0),
	CONSTRAINT "models_prices" CHECK ("models"."input_nanos_per_mtok" >= 0 and "models"."cached_input_nanos_per_mtok" >= 0 and "models"."output_nanos_per_mtok" >= 0)
);
--> statement-breakpoint
CREATE TABLE "platform_keys" (
	"slot" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"source_workspace_id" uuid NOT NULL,
	"secret_name" text NOT NULL,
	"model_uid" uuid NOT NULL,
	"base_url" text,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "platform_keys_one_row" CHECK ("platform_keys"."slot" = 'default'),
	CONSTRAINT "platform_keys_provider" CHECK ("platform_keys"."provider" in ('anthropic', 'openai', 'openai_compatible')),
	CONSTRAINT "platform_keys_base_url" CHECK (("platform_keys"."provider" = 'openai_compatible') = ("platform_keys"."base_url" is not null) and ("platform_keys"."base_url" is null or "platform_keys"."base_url" like 'https://%'))
);
--> statement-breakpoint
CREATE TABLE "tenant_providers" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"model_uid" uuid NOT NULL,
	"base_url" text,
	"wrapped_key" text,
	"ciphertext" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "tenant_providers_provider" CHECK ("tenant_providers"."provider" in ('platform', 'anthropic', 'openai', 'openai_compatible')),
	CONSTRAINT "tenant_providers_sealed" CHECK (("tenant_providers"."wrapped_key" is null) = ("tenant_providers"."ciphertext" is null)),
	CONSTRAINT "tenant_providers_base_url" CHECK (("tenant_providers"."provider" = 'openai_compatible') = ("tenant_providers"."base_url" is not null) and ("tenant_providers"."base_url" is null or "tenant_providers"."base_url" like 'https://%')),
	CONSTRAINT "tenant_providers_key" CHECK (case "tenant_providers"."provider" when 'platform' then "tenant_providers"."ciphertext" is null when 'openai_compatible' then true else "tenant_providers"."ciphertext" is not null end)
);
--> statement-breakpoint
ALTER TABLE "platform_keys" ADD CONSTRAINT "platform_keys_source_workspace_id_workspaces_id_fk" FOREIGN KEY ("source_workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_keys" ADD CONSTRAINT "platform_keys_model_uid_models_uid_fk" FOREIGN KEY ("model_uid") REFERENCES "public"."models"("uid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_providers" ADD CONSTRAINT "tenant_providers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_providers" ADD CONSTRAINT "tenant_providers_model_uid_models_uid_fk" FOREIGN KEY ("model_uid") REFERENCES "public"."models"("uid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "models_provider_model_key" ON "models" USING btree ("provider","model_id");--> statement-breakpoint
CREATE INDEX "models_page_idx" ON "models" USING btree ("created_at","uid");--> statement-breakpoint
CREATE INDEX "tenant_providers_model_idx" ON "tenant_providers" USING btree ("model_uid");