ALTER TABLE "connectors" ALTER COLUMN "team_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "connectors" ALTER COLUMN "team_name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "credited_nanos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "retired_spend_nanos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "fleets" ADD COLUMN "charged_nanos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The balance moves off the account row: each fleet holds its own charges, the account its credits and
-- the charges of fleets since deleted. Backfilled so every balance reads as it did.
UPDATE "fleets" f SET "charged_nanos" = s.total
  FROM (SELECT "fleet_id", sum("cost_nanos")::bigint AS total FROM "charges" GROUP BY "fleet_id") s
  WHERE s."fleet_id" = f."id";--> statement-breakpoint
UPDATE "billing_accounts" a SET
  "credited_nanos" = coalesce((SELECT sum(c."amount_nanos") FROM "billing_credits" c WHERE c."tenant_id" = a."tenant_id"), 0),
  "retired_spend_nanos" = coalesce((SELECT sum(c."cost_nanos") FROM "charges" c
    WHERE c."tenant_id" = a."tenant_id" AND NOT EXISTS (SELECT 1 FROM "fleets" f WHERE f."id" = c."fleet_id")), 0);
