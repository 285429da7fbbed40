CREATE TABLE "approval_policies" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"rules" jsonb NOT NULL,
	"escalation_webhook_url" text,
	"updated_at" bigint NOT NULL,
	"updated_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_votes" (
	"gate_id" uuid NOT NULL,
	"voter_id" uuid NOT NULL,
	"principal" text NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"at" bigint NOT NULL,
	CONSTRAINT "approval_votes_gate_id_voter_id_pk" PRIMARY KEY("gate_id","voter_id"),
	CONSTRAINT "approval_votes_outcome" CHECK ("approval_votes"."outcome" in ('approved', 'denied'))
);
--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "rule_name" text;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "required_approvals" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "approvers" jsonb;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "escalate_at" bigint;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "escalated_at" bigint;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "escalation_approvers" jsonb;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "max_extension_ms" bigint DEFAULT 3600000 NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "extended_at" bigint;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "extension_reason" text;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "extended_by" text;--> statement-breakpoint
ALTER TABLE "approval_policies" ADD CONSTRAINT "approval_policies_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_policies" ADD CONSTRAINT "approval_policies_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_votes" ADD CONSTRAINT "approval_votes_gate_id_approval_gates_id_fk" FOREIGN KEY ("gate_id") REFERENCES "public"."approval_gates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_gates_escalation_idx" ON "approval_gates" USING btree ("escalate_at") WHERE "approval_gates"."status" = 'pending' and "approval_gates"."escalate_at" is not null and "approval_gates"."escalated_at" is null;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD CONSTRAINT "approval_gates_quorum" CHECK ("approval_gates"."required_approvals" between 1 and 10);--> statement-breakpoint
ALTER TABLE "approval_gates" ADD CONSTRAINT "approval_gates_extension" CHECK (("approval_gates"."extended_at" is null) = ("approval_gates"."extended_by" is null and "approval_gates"."extension_reason" is null));