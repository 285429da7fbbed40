CREATE TABLE "leases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"runner_id" uuid NOT NULL,
	"fleet_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"fencing_token" bigint NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"failure_label" text,
	"failure_detail" text,
	"provider" text,
	"model" text,
	"posture" text,
	"input_tokens" bigint,
	"output_tokens" bigint,
	"cached_tokens" bigint,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"ended_at" bigint,
	CONSTRAINT "leases_kind" CHECK ("leases"."kind" in ('fresh', 'reclaim')),
	CONSTRAINT "leases_status" CHECK ("leases"."status" in ('running', 'succeeded', 'failed', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "runner_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"runner_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "runner_events_type" CHECK ("runner_events"."event_type" in ('runner_registered', 'runner_online', 'runner_offline', 'lease_acquired', 'lease_released', 'runner_cordoned', 'runner_draining', 'runner_drained', 'runner_revoked', 'runner_policy_assigned'))
);
--> statement-breakpoint
ALTER TABLE "runners" ADD COLUMN "labels" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "runners" ADD COLUMN "assigned_policy" jsonb;--> statement-breakpoint
ALTER TABLE "runners" ADD COLUMN "admin_state" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "runners" ADD COLUMN "capability_report" jsonb;--> statement-breakpoint
ALTER TABLE "runners" ADD COLUMN "degraded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "runners" ADD COLUMN "degraded_reason" text;--> statement-breakpoint
ALTER TABLE "runners" ADD COLUMN "last_heartbeat_at" bigint;--> statement-breakpoint
ALTER TABLE "runners" ADD COLUMN "updated_at" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leases" ADD CONSTRAINT "leases_runner_id_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."runners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "runner_events" ADD CONSTRAINT "runner_events_runner_id_runners_id_fk" FOREIGN KEY ("runner_id") REFERENCES "public"."runners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "leases_one_running_per_fleet" ON "leases" USING btree ("fleet_id") WHERE "leases"."status" = 'running';--> statement-breakpoint
CREATE INDEX "leases_runner_page_idx" ON "leases" USING btree ("runner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "leases_event_idx" ON "leases" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "runner_events_page_idx" ON "runner_events" USING btree ("runner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "runners_page_idx" ON "runners" USING btree ("created_at","id");--> statement-breakpoint
ALTER TABLE "runners" ADD CONSTRAINT "runners_admin_state" CHECK ("runners"."admin_state" in ('active', 'cordoned', 'draining', 'revoked'));