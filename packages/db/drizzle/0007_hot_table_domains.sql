-- The enumerated columns a lease cycle writes become domains instead of CHECK constraints: PostgreSQL
-- parses and plans a table's CHECK expressions again in every statement that writes a row of it; a
-- domain's check is planned once per connection (docs/decisions.md, "Enumerated columns on hot tables").
-- Written by hand: drizzle-kit knows nothing of domains. The values match src/schema/domains.ts.
CREATE DOMAIN "fleet_status" AS text CHECK (VALUE IN ('installing', 'active', 'paused', 'stopped', 'killed'));--> statement-breakpoint
CREATE DOMAIN "fleet_event_type" AS text CHECK (VALUE IN ('chat', 'webhook', 'cron', 'continuation'));--> statement-breakpoint
CREATE DOMAIN "fleet_event_status" AS text CHECK (VALUE IN ('received', 'processed', 'fleet_error', 'gate_blocked'));--> statement-breakpoint
CREATE DOMAIN "lease_kind" AS text CHECK (VALUE IN ('fresh', 'reclaim'));--> statement-breakpoint
CREATE DOMAIN "lease_status" AS text CHECK (VALUE IN ('running', 'succeeded', 'failed', 'expired'));--> statement-breakpoint
CREATE DOMAIN "runner_event_type" AS text CHECK (VALUE IN ('runner_registered', 'runner_online', 'runner_offline', 'lease_acquired', 'lease_released', 'runner_cordoned', 'runner_draining', 'runner_drained', 'runner_revoked', 'runner_policy_assigned'));--> statement-breakpoint
ALTER TABLE "fleet_events" DROP CONSTRAINT "fleet_events_type";--> statement-breakpoint
ALTER TABLE "fleet_events" DROP CONSTRAINT "fleet_events_status";--> statement-breakpoint
ALTER TABLE "fleets" DROP CONSTRAINT "fleets_status";--> statement-breakpoint
ALTER TABLE "leases" DROP CONSTRAINT "leases_kind";--> statement-breakpoint
ALTER TABLE "leases" DROP CONSTRAINT "leases_status";--> statement-breakpoint
ALTER TABLE "runner_events" DROP CONSTRAINT "runner_events_type";--> statement-breakpoint
ALTER TABLE "fleet_events" ALTER COLUMN "event_type" SET DATA TYPE "fleet_event_type";--> statement-breakpoint
ALTER TABLE "fleet_events" ALTER COLUMN "status" SET DATA TYPE "fleet_event_status";--> statement-breakpoint
ALTER TABLE "fleets" ALTER COLUMN "status" SET DATA TYPE "fleet_status";--> statement-breakpoint
ALTER TABLE "leases" ALTER COLUMN "kind" SET DATA TYPE "lease_kind";--> statement-breakpoint
ALTER TABLE "leases" ALTER COLUMN "status" SET DATA TYPE "lease_status";--> statement-breakpoint
ALTER TABLE "runner_events" ALTER COLUMN "event_type" SET DATA TYPE "runner_event_type";
