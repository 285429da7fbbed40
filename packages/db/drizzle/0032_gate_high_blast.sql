ALTER TABLE "approval_gates" ADD COLUMN "high_blast" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Gates opened before the column: high when their blast radius's words say so, as the console read them.
UPDATE "approval_gates" SET "high_blast" = true WHERE "blast_radius" ~* '\m(prod|production|high|critical)\M';
