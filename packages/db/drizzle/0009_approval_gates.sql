CREATE TABLE "approval_gates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"fleet_id" uuid NOT NULL,
	"fleet_name" text NOT NULL,
	"action_id" uuid NOT NULL,
	"lease_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"tool_name" text NOT NULL,
	"action_name" text NOT NULL,
	"gate_kind" text NOT NULL,
	"proposed_action" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"blast_radius" text NOT NULL,
	"detail" text NOT NULL,
	"status" text NOT NULL,
	"amended_action" text,
	"reason" text,
	"resolved_by" text,
	"resolved_at" bigint,
	"requested_at" bigint NOT NULL,
	"timeout_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "approval_gates_status" CHECK ("approval_gates"."status" in ('pending', 'approved', 'denied', 'timed_out', 'auto_killed')),
	CONSTRAINT "approval_gates_resolution" CHECK (("approval_gates"."status" = 'pending') = ("approval_gates"."resolved_at" is null and "approval_gates"."resolved_by" is null)),
	CONSTRAINT "approval_gates_amended" CHECK ("approval_gates"."amended_action" is null or "approval_gates"."status" = 'approved'),
	CONSTRAINT "approval_gates_deadline" CHECK ("approval_gates"."timeout_at" > "approval_gates"."requested_at")
);
--> statement-breakpoint
ALTER TABLE "approval_gates" ADD CONSTRAINT "approval_gates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD CONSTRAINT "approval_gates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_gates_fleet_action_key" ON "approval_gates" USING btree ("fleet_id","action_id");--> statement-breakpoint
CREATE INDEX "approval_gates_inbox_idx" ON "approval_gates" USING btree ("workspace_id","status","requested_at","id");--> statement-breakpoint
CREATE INDEX "approval_gates_pending_deadline_idx" ON "approval_gates" USING btree ("timeout_at") WHERE "approval_gates"."status" = 'pending';--> statement-breakpoint
-- Written by hand (drizzle-kit knows no triggers): a gate that has left `pending` never changes, whatever
-- the statement; the first answer stands (docs/decisions.md, "Approval gates"). Deleting stays possible,
-- so a workspace's or tenant's deletion still cascades.
CREATE FUNCTION "approval_gates_terminal_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'pending' THEN
    RAISE EXCEPTION 'approval gate % is % and can no longer change', OLD.id, OLD.status
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "approval_gates_terminal_guard" BEFORE UPDATE ON "approval_gates"
  FOR EACH ROW EXECUTE FUNCTION "approval_gates_terminal_guard"();
