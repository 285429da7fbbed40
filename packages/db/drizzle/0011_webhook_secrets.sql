CREATE TABLE "webhook_secrets" (
	"workspace_id" uuid PRIMARY KEY NOT NULL,
	"wrapped_key" text NOT NULL,
	"ciphertext" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;