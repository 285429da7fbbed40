CREATE TABLE "message_idempotency_keys" (
	"workspace_id" uuid NOT NULL,
	"fleet_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"event_id" uuid NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "message_idempotency_keys_pkey" PRIMARY KEY("workspace_id","fleet_id","key")
);
--> statement-breakpoint
ALTER TABLE "message_idempotency_keys" ADD CONSTRAINT "message_idempotency_keys_fleet_id_fleets_id_fk" FOREIGN KEY ("fleet_id") REFERENCES "public"."fleets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_idempotency_keys_expiry_idx" ON "message_idempotency_keys" USING btree ("fleet_id","created_at");