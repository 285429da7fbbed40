ALTER TABLE "connectors" ALTER COLUMN "team_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "connectors" ALTER COLUMN "team_name" DROP NOT NULL;