ALTER TABLE "approval_gates" ADD COLUMN "action_schema" jsonb;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "action_ran_at" bigint;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "action_ran_lease_id" uuid;