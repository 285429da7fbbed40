CREATE TABLE "stream_frames" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"fleet_id" uuid NOT NULL,
	"event_id" uuid,
	"lease_id" uuid,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "stream_frames_workspace_idx" ON "stream_frames" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE INDEX "stream_frames_at_idx" ON "stream_frames" USING btree ("at");