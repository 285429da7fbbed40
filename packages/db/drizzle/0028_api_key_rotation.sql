ALTER TABLE "api_keys" ADD COLUMN "previous_key_hash" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "previous_expires_at" bigint;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "rotated_at" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_previous_hash_key" ON "api_keys" USING btree ("previous_key_hash") WHERE "api_keys"."previous_key_hash" is not null;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_previous_secret" CHECK (("api_keys"."previous_key_hash" is null) = ("api_keys"."previous_expires_at" is null));