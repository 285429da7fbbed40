CREATE TABLE "webhook_attempts" (
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"at" bigint NOT NULL,
	"status" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"response_head" text,
	CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY("endpoint_id","event_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"resource" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY("endpoint_id","event_id"),
	CONSTRAINT "webhook_deliveries_status" CHECK ("webhook_deliveries"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text NOT NULL,
	"event_types" text[] NOT NULL,
	"fleet_id" uuid,
	"enabled" boolean NOT NULL,
	"disabled_reason" text,
	"wrapped_key" text NOT NULL,
	"ciphertext" text NOT NULL,
	"secret_created_at" bigint NOT NULL,
	"previous_wrapped_key" text,
	"previous_ciphertext" text,
	"previous_expires_at" bigint,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "webhook_endpoints_event_types" CHECK (cardinality("webhook_endpoints"."event_types") > 0),
	CONSTRAINT "webhook_endpoints_previous_secret" CHECK (("webhook_endpoints"."previous_wrapped_key" is null) = ("webhook_endpoints"."previous_ciphertext" is null) and ("webhook_endpoints"."previous_wrapped_key" is null) = ("webhook_endpoints"."previous_expires_at" is null)),
	CONSTRAINT "webhook_endpoints_disabled_reason" CHECK ("webhook_endpoints"."disabled_reason" is null or "webhook_endpoints"."disabled_reason" in ('gone'))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"fleet_id" uuid,
	"type" text NOT NULL,
	"resource" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_fk" FOREIGN KEY ("endpoint_id","event_id") REFERENCES "public"."webhook_deliveries"("endpoint_id","event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_fleet_id_fleets_id_fk" FOREIGN KEY ("fleet_id") REFERENCES "public"."fleets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_order_idx" ON "webhook_deliveries" USING btree ("endpoint_id","resource","event_id") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_endpoints_workspace_idx" ON "webhook_endpoints" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_events_workspace_idx" ON "webhook_events" USING btree ("workspace_id","created_at");--> statement-breakpoint
-- Written by hand: owners hold every tenant scope, so the new webhook scopes are added to the owners the
-- tenants already have (a new tenant's owner gets them at signup). docs/decisions/webhooks.md, "Scopes".
UPDATE "memberships" SET "scopes" = "scopes" || ARRAY['webhook:read', 'webhook:write']::text[]
WHERE "role" = 'owner' AND NOT ('webhook:write' = ANY("scopes"));
