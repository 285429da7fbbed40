CREATE TABLE "rate_limit_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"granted" integer NOT NULL,
	"updated_at" bigint NOT NULL,
	"full_at" bigint NOT NULL,
	CONSTRAINT "rate_limit_buckets_granted" CHECK ("rate_limit_buckets"."granted" >= 0)
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "rate_limit" integer;--> statement-breakpoint
CREATE INDEX "rate_limit_buckets_full_idx" ON "rate_limit_buckets" USING btree ("full_at");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_rate_limit" CHECK ("api_keys"."rate_limit" between 1 and 1000000);