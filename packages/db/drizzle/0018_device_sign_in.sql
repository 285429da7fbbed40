CREATE TABLE "cli_credentials" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"client_name" text NOT NULL,
	"client_host" text,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE TABLE "device_sign_ins" (
	"id" uuid PRIMARY KEY NOT NULL,
	"device_code_hash" text NOT NULL,
	"user_code_hash" text NOT NULL,
	"client_name" text NOT NULL,
	"client_host" text,
	"status" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"interval_ms" integer NOT NULL,
	"last_polled_at" bigint,
	"tenant_id" uuid,
	"user_id" uuid,
	"scopes" text[],
	"answered_at" bigint,
	"credential_id" uuid,
	CONSTRAINT "device_sign_ins_status" CHECK ("device_sign_ins"."status" in ('pending', 'approved', 'denied', 'spent'))
);
--> statement-breakpoint
CREATE TABLE "user_code_attempts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"window_started_at" bigint NOT NULL,
	"failures" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cli_credentials" ADD CONSTRAINT "cli_credentials_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cli_credentials" ADD CONSTRAINT "cli_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_sign_ins" ADD CONSTRAINT "device_sign_ins_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_sign_ins" ADD CONSTRAINT "device_sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_code_attempts" ADD CONSTRAINT "user_code_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cli_credentials_person_idx" ON "cli_credentials" USING btree ("tenant_id","user_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_sign_ins_device_code_key" ON "device_sign_ins" USING btree ("device_code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "device_sign_ins_pending_user_code_key" ON "device_sign_ins" USING btree ("user_code_hash") WHERE "device_sign_ins"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "device_sign_ins_user_code_idx" ON "device_sign_ins" USING btree ("user_code_hash","created_at");--> statement-breakpoint
CREATE INDEX "device_sign_ins_expires_idx" ON "device_sign_ins" USING btree ("expires_at");