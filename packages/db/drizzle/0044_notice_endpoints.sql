ALTER TABLE "webhook_endpoints" ALTER COLUMN "wrapped_key" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "ciphertext" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ALTER COLUMN "secret_created_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "managed_by" text;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_endpoints_managed_key" ON "webhook_endpoints" USING btree ("workspace_id") WHERE "webhook_endpoints"."managed_by" is not null;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_managed_secret" CHECK (("webhook_endpoints"."managed_by" is null or "webhook_endpoints"."managed_by" = 'approval_policy') and ("webhook_endpoints"."managed_by" is null) = ("webhook_endpoints"."wrapped_key" is not null) and ("webhook_endpoints"."wrapped_key" is null) = ("webhook_endpoints"."ciphertext" is null) and ("webhook_endpoints"."wrapped_key" is null) = ("webhook_endpoints"."secret_created_at" is null));--> statement-breakpoint
-- Each approval policy's escalation URL becomes its workspace's notice endpoint (docs/decisions/webhooks.md,
-- "The escalation and budget notices"). Its id is a UUIDv7 as the service mints them: the time in ms, the
-- version, random bits, the variant.
INSERT INTO "webhook_endpoints" ("id", "tenant_id", "workspace_id", "url", "description", "event_types",
  "fleet_id", "enabled", "managed_by", "created_by", "created_at", "updated_at")
SELECT (lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0') || '7'
    || substr(md5(random()::text), 1, 3) || to_hex(8 + floor(random() * 4)::int)
    || substr(md5(random()::text), 1, 15))::uuid,
  p."tenant_id", p."workspace_id", p."escalation_webhook_url",
  'Escalation and budget notices: the approval policy''s escalation URL',
  ARRAY['gate.escalated', 'budget.threshold_crossed']::text[], NULL, true, 'approval_policy',
  p."updated_by", p."updated_at", p."updated_at"
FROM "approval_policies" p
WHERE p."escalation_webhook_url" IS NOT NULL;
