ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_at" bigint;--> statement-breakpoint
-- Endpoints the service disabled before this column: their last change is the best time known.
UPDATE "webhook_endpoints" SET "disabled_at" = "updated_at" WHERE "disabled_reason" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_disabled_at" CHECK (("webhook_endpoints"."disabled_reason" is null) = ("webhook_endpoints"."disabled_at" is null));
