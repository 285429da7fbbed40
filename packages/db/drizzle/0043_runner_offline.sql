ALTER TABLE "runners" ADD COLUMN "offline_at" bigint;--> statement-breakpoint
CREATE INDEX "runners_unmarked_heartbeat_idx" ON "runners" USING btree ("last_heartbeat_at") WHERE "runners"."offline_at" is null and "runners"."revoked_at" is null;--> statement-breakpoint
-- Runners already quiet when this lands are marked as of their lapse, so the first sweep does not announce
-- lapses from before the sweep existed.
UPDATE "runners" SET "offline_at" = "last_heartbeat_at" + 90000
WHERE "last_heartbeat_at" IS NOT NULL AND "revoked_at" IS NULL
  AND "last_heartbeat_at" < (extract(epoch from now()) * 1000)::bigint - 90000;
