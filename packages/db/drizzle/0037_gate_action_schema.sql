ALTER TABLE "approval_gates" ADD COLUMN "action_schema" jsonb;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "action_ran_at" bigint;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "action_ran_lease_id" uuid;--> statement-breakpoint
-- Written by hand: an answered gate still never changes, except that an approved one records, once, when
-- and under which lease its action started (a reclaimed run must not run it again).
CREATE OR REPLACE FUNCTION "approval_gates_terminal_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'pending' THEN
    IF OLD.status = 'approved' AND OLD.action_ran_at IS NULL AND NEW.action_ran_at IS NOT NULL
       AND NEW.action_ran_lease_id IS NOT NULL
       AND (to_jsonb(NEW) - 'action_ran_at' - 'action_ran_lease_id')
         = (to_jsonb(OLD) - 'action_ran_at' - 'action_ran_lease_id') THEN
      RETURN NEW;
    END IF;
    RAISE EXCEPTION 'approval gate % is % and can no longer change', OLD.id, OLD.status
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END
$$;
