ALTER TABLE "api_keys" ADD COLUMN "key_prefix" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" bigint;