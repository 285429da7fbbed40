CREATE TABLE "fleet_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"fleet_id" uuid NOT NULL,
	"actor" text NOT NULL,
	"event_type" text NOT NULL,
	"request_json" text NOT NULL,
	"status" text NOT NULL,
	"response_text" text,
	"failure_label" text,
	"failure_detail" text,
	"checkpoint_id" text,
	"resumes_event_id" uuid,
	"tokens" bigint,
	"wall_ms" bigint,
	"cost_nanos" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "fleet_events_type" CHECK ("fleet_events"."event_type" in ('chat', 'webhook', 'cron', 'continuation')),
	CONSTRAINT "fleet_events_status" CHECK ("fleet_events"."status" in ('received', 'processed', 'fleet_error', 'gate_blocked'))
);
--> statement-breakpoint
CREATE TABLE "fleet_libraries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"visibility" text NOT NULL,
	"tenant_id" uuid,
	"workspace_id" uuid,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"instructions" text NOT NULL,
	"triggers" jsonb NOT NULL,
	"requirements" jsonb NOT NULL,
	"credential_reasons" jsonb NOT NULL,
	"source_ref" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "fleet_libraries_visibility" CHECK ("fleet_libraries"."visibility" in ('platform', 'tenant')),
	CONSTRAINT "fleet_libraries_owner" CHECK (("fleet_libraries"."visibility" = 'platform') = ("fleet_libraries"."workspace_id" is null and "fleet_libraries"."tenant_id" is null))
);
--> statement-breakpoint
CREATE TABLE "fleet_memories" (
	"id" uuid PRIMARY KEY NOT NULL,
	"fleet_id" uuid NOT NULL,
	"key" text NOT NULL,
	"category" text NOT NULL,
	"content" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fleets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"library_id" uuid NOT NULL,
	"library_visibility" text NOT NULL,
	"definition" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"fence_seq" bigint DEFAULT 0 NOT NULL,
	"events_processed" bigint DEFAULT 0 NOT NULL,
	"budget_used_nanos" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "fleets_status" CHECK ("fleets"."status" in ('installing', 'active', 'paused', 'stopped', 'killed'))
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"fleet_id" uuid NOT NULL,
	"source" text NOT NULL,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"message" text NOT NULL,
	"once" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"sync" text NOT NULL,
	"last_error" text,
	"generation" integer DEFAULT 1 NOT NULL,
	"override" jsonb,
	"trigger_index" integer,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "schedules_source" CHECK ("schedules"."source" in ('api', 'trigger', 'fleet')),
	CONSTRAINT "schedules_status" CHECK ("schedules"."status" in ('active', 'paused', 'deleting')),
	CONSTRAINT "schedules_sync" CHECK ("schedules"."sync" in ('syncing', 'synced', 'failed')),
	CONSTRAINT "schedules_override" CHECK ("schedules"."override" is null or "schedules"."source" = 'trigger')
);
--> statement-breakpoint
ALTER TABLE "fleet_events" ADD CONSTRAINT "fleet_events_fleet_id_fleets_id_fk" FOREIGN KEY ("fleet_id") REFERENCES "public"."fleets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleet_libraries" ADD CONSTRAINT "fleet_libraries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleet_libraries" ADD CONSTRAINT "fleet_libraries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleet_memories" ADD CONSTRAINT "fleet_memories_fleet_id_fleets_id_fk" FOREIGN KEY ("fleet_id") REFERENCES "public"."fleets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleets" ADD CONSTRAINT "fleets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fleets" ADD CONSTRAINT "fleets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_fleet_id_fleets_id_fk" FOREIGN KEY ("fleet_id") REFERENCES "public"."fleets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fleet_events_fleet_page_idx" ON "fleet_events" USING btree ("fleet_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fleet_events_workspace_page_idx" ON "fleet_events" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fleet_events_pending_idx" ON "fleet_events" USING btree ("fleet_id","created_at","id") WHERE "fleet_events"."status" = 'received';--> statement-breakpoint
CREATE INDEX "fleet_libraries_platform_page_idx" ON "fleet_libraries" USING btree ("created_at","id") WHERE "fleet_libraries"."visibility" = 'platform';--> statement-breakpoint
CREATE INDEX "fleet_libraries_workspace_page_idx" ON "fleet_libraries" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "fleet_memories_fleet_key" ON "fleet_memories" USING btree ("fleet_id","key");--> statement-breakpoint
CREATE INDEX "fleet_memories_fleet_page_idx" ON "fleet_memories" USING btree ("fleet_id","created_at","id");--> statement-breakpoint
CREATE INDEX "fleet_memories_fleet_category_idx" ON "fleet_memories" USING btree ("fleet_id","category","created_at","id");--> statement-breakpoint
CREATE INDEX "fleet_memories_search_idx" ON "fleet_memories" USING gin (to_tsvector('simple', "key" || ' ' || "content"));--> statement-breakpoint
CREATE UNIQUE INDEX "fleets_workspace_name_key" ON "fleets" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE INDEX "fleets_workspace_page_idx" ON "fleets" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "schedules_fleet_page_idx" ON "schedules" USING btree ("fleet_id","created_at","id");