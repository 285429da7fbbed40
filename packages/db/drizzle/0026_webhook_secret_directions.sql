-- A secret for each direction (issue 29): incoming verifies the grant-approval webhook, outgoing signs the
-- service's notices. The one secret a workspace had signed both; it stays as the outgoing secret (its vault
-- binding is the outgoing one), so notice receivers keep verifying, and a grant decision needs a new
-- incoming secret: whoever held the old one, a receiver of notices included, can no longer approve grants.
ALTER TABLE "webhook_secrets" ADD COLUMN "direction" text NOT NULL DEFAULT 'outgoing';--> statement-breakpoint
ALTER TABLE "webhook_secrets" ALTER COLUMN "direction" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "webhook_secrets" DROP CONSTRAINT "webhook_secrets_pkey";--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_workspace_id_direction_pk" PRIMARY KEY("workspace_id","direction");--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_direction" CHECK ("webhook_secrets"."direction" in ('incoming', 'outgoing'));
