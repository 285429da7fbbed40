-- The act writes an outgoing event alone; a deliverer writes its deliveries and marks it fanned out.
-- The default is for events written without the column: those already in the outbox, and those an
-- instance of the release before writes during a rolling deploy, with their deliveries. Every act of
-- this release writes false.
ALTER TABLE "webhook_events" ADD COLUMN "fanned_out" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_events_fan_out_idx" ON "webhook_events" USING btree ("created_at","id") WHERE not "webhook_events"."fanned_out";
