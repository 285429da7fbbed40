CREATE TABLE "integration_grants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"fleet_id" uuid NOT NULL,
	"service" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" bigint NOT NULL,
	"decided_by" text,
	"decided_at" bigint,
	"gate_id" uuid,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "integration_grants_status" CHECK ("integration_grants"."status" in ('pending', 'approved', 'revoked')),
	CONSTRAINT "integration_grants_decision" CHECK (("integration_grants"."status" = 'pending') = ("integration_grants"."decided_at" is null and "integration_grants"."decided_by" is null))
);
--> statement-breakpoint
CREATE TABLE "webhook_nonces" (
	"workspace_id" uuid NOT NULL,
	"nonce" text NOT NULL,
	"used_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "webhook_nonces_pkey" PRIMARY KEY("workspace_id","nonce")
);
--> statement-breakpoint
ALTER TABLE "approval_gates" ALTER COLUMN "lease_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_gates" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "integration_grants" ADD CONSTRAINT "integration_grants_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_grants" ADD CONSTRAINT "integration_grants_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_grants" ADD CONSTRAINT "integration_grants_fleet_id_fleets_id_fk" FOREIGN KEY ("fleet_id") REFERENCES "public"."fleets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_nonces" ADD CONSTRAINT "webhook_nonces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_grants_fleet_service_key" ON "integration_grants" USING btree ("fleet_id","service");--> statement-breakpoint
CREATE INDEX "integration_grants_fleet_page_idx" ON "integration_grants" USING btree ("fleet_id","created_at","id");--> statement-breakpoint
CREATE INDEX "integration_grants_gate_idx" ON "integration_grants" USING btree ("gate_id");--> statement-breakpoint
CREATE INDEX "webhook_nonces_expiry_idx" ON "webhook_nonces" USING btree ("workspace_id","expires_at");--> statement-breakpoint
ALTER TABLE "approval_gates" ADD CONSTRAINT "approval_gates_lease_event" CHECK (("approval_gates"."lease_id" is null) = ("approval_gates"."event_id" is null));