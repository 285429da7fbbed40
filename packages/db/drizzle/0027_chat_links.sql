CREATE TABLE "chat_link_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"connector_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"team_id" text NOT NULL,
	"chat_user_id" text NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"team_id" text NOT NULL,
	"chat_user_id" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_link_tokens" ADD CONSTRAINT "chat_link_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_link_tokens" ADD CONSTRAINT "chat_link_tokens_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_links" ADD CONSTRAINT "chat_links_membership_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."memberships"("tenant_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_link_tokens_chat_user_key" ON "chat_link_tokens" USING btree ("connector_id","chat_user_id");--> statement-breakpoint
CREATE INDEX "chat_link_tokens_expiry_idx" ON "chat_link_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_links_chat_user_key" ON "chat_links" USING btree ("tenant_id","provider","team_id","chat_user_id");--> statement-breakpoint
CREATE INDEX "chat_links_member_idx" ON "chat_links" USING btree ("tenant_id","user_id");