-- The act writes an outgoing event alone; a deliverer writes its deliveries and marks it fanned out.
-- Events already in the outbox have their deliveries: they are fanned out.
ALTER TABLE "webhook_events" ADD COLUMN "fanned_out" boolean NOT NULL DEFAULT true;--> statement-breakpoint
ALTER TABLE "webhook_events" ALTER COLUMN "fanned_out" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "webhook_events_fan_out_idx" ON "webhook_events" USING btree ("created_at","id") WHERE not "webhook_events"."fanned_out";
