CREATE TABLE "chat_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"connector_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"fleet_event_id" uuid,
	"gate_id" uuid,
	"channel_id" text NOT NULL,
	"thread_ts" text,
	"message_ts" text,
	"state" text NOT NULL,
	"payload" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "chat_messages_kind" CHECK ("chat_messages"."kind" in ('answer', 'gate')),
	CONSTRAINT "chat_messages_state" CHECK ("chat_messages"."state" in ('awaiting', 'post', 'update', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "connector_deliveries" (
	"provider" text NOT NULL,
	"delivery_id" text NOT NULL,
	"received_at" bigint NOT NULL,
	CONSTRAINT "connector_deliveries_pkey" PRIMARY KEY("provider","delivery_id")
);
--> statement-breakpoint
CREATE TABLE "connector_oauth_states" (
	"nonce" text PRIMARY KEY NOT NULL,
	"workspace_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"caller" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "connector_routes" (
	"connector_id" uuid NOT NULL,
	"channel_id" text NOT NULL,
	"fleet_id" uuid NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "connector_routes_pkey" PRIMARY KEY("connector_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "connectors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"team_id" text NOT NULL,
	"team_name" text NOT NULL,
	"bot_user_id" text,
	"wrapped_key" text NOT NULL,
	"ciphertext" text NOT NULL,
	"connected_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "connectors_status" CHECK ("connectors"."status" in ('connected', 'reconnect_required'))
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_oauth_states" ADD CONSTRAINT "connector_oauth_states_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_routes" ADD CONSTRAINT "connector_routes_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_routes" ADD CONSTRAINT "connector_routes_fleet_id_fleets_id_fk" FOREIGN KEY ("fleet_id") REFERENCES "public"."fleets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_messages_due_idx" ON "chat_messages" USING btree ("next_attempt_at") WHERE "chat_messages"."state" in ('post', 'update');--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_event_key" ON "chat_messages" USING btree ("fleet_event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_gate_key" ON "chat_messages" USING btree ("gate_id","connector_id");--> statement-breakpoint
CREATE INDEX "connector_deliveries_received_idx" ON "connector_deliveries" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "connector_oauth_states_expiry_idx" ON "connector_oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "connectors_workspace_provider_key" ON "connectors" USING btree ("workspace_id","provider");--> statement-breakpoint
CREATE UNIQUE INDEX "connectors_provider_team_key" ON "connectors" USING btree ("provider","team_id");