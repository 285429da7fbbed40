CREATE TABLE "billing_accounts" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"balance_nanos" bigint DEFAULT 0 NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_credits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"amount_nanos" bigint NOT NULL,
	"reference" text NOT NULL,
	"note" text,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budget_alerts" (
	"fleet_id" uuid NOT NULL,
	"period" text NOT NULL,
	"percent" integer NOT NULL,
	"tenant_id" uuid NOT NULL,
	"budget_nanos" bigint NOT NULL,
	"spend_nanos" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "budget_alerts_fleet_id_period_percent_pk" PRIMARY KEY("fleet_id","period","percent")
);
--> statement-breakpoint
CREATE TABLE "charges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"workspace_id" uuid NOT NULL,
	"fleet_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"lease_id" uuid NOT NULL,
	"provider" text,
	"model" text,
	"tokens" bigint,
	"input_tokens" bigint,
	"output_tokens" bigint,
	"cached_tokens" bigint,
	"input_nanos_per_mtok" bigint,
	"cached_input_nanos_per_mtok" bigint,
	"output_nanos_per_mtok" bigint,
	"price_source" text NOT NULL,
	"cost_nanos" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fleets" ADD COLUMN "period_budget_nanos" bigint;--> statement-breakpoint
ALTER TABLE "fleets" ADD COLUMN "run_budget_nanos" bigint;--> statement-breakpoint
ALTER TABLE "fleets" ADD COLUMN "budget_alert_percents" integer[] DEFAULT '{50,80,100}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "fleets" ADD COLUMN "spend_period" text;--> statement-breakpoint
ALTER TABLE "fleets" ADD COLUMN "period_spend_nanos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leases" ADD COLUMN "usage_nanos" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_credits" ADD CONSTRAINT "billing_credits_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_credits_reference_key" ON "billing_credits" USING btree ("tenant_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "charges_event_key" ON "charges" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "charges_tenant_page_idx" ON "charges" USING btree ("tenant_id","created_at","id");