CREATE TABLE "run_frames" (
	"id" bigint PRIMARY KEY NOT NULL,
	"lease_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"fleet_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "run_frames_lease_idx" ON "run_frames" USING btree ("lease_id","id");--> statement-breakpoint
CREATE INDEX "run_frames_at_idx" ON "run_frames" USING btree ("at");