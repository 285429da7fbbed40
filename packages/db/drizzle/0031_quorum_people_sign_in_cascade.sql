CREATE TABLE "session_revocations" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"revoked_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "caused_by" uuid;--> statement-breakpoint
ALTER TABLE "approval_gates" ADD COLUMN "allow_self_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_policies" ADD COLUMN "allow_self_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "cli_credentials" ADD COLUMN "approved_via" text;--> statement-breakpoint
ALTER TABLE "device_sign_ins" ADD COLUMN "approved_via" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "invited_by" uuid;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "family_id" uuid;--> statement-breakpoint
ALTER TABLE "session_revocations" ADD CONSTRAINT "session_revocations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_revocations" ADD CONSTRAINT "session_revocations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_revocations_expires_idx" ON "session_revocations" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "cli_credentials_approved_via_idx" ON "cli_credentials" USING btree ("approved_via");--> statement-breakpoint
-- Who invited each member, recovered from the audit log's member.invite rows (written in the inviting
-- transaction, at the membership's created_at); an API key invites as its creator.
UPDATE "memberships" m SET "invited_by" = s.inviter
FROM (
  SELECT a."tenant_id", substr(a."target", 6)::uuid AS user_id, a."at",
    CASE
      WHEN a."actor" ~ '^user:[0-9a-f-]{36}$' THEN substr(a."actor", 6)::uuid
      WHEN a."actor" ~ '^api_key:[0-9a-f-]{36}$' THEN
        (SELECT k."created_by" FROM "api_keys" k WHERE k."id" = substr(a."actor", 9)::uuid)
    END AS inviter
  FROM "audit_events" a
  WHERE a."action" = 'member.invite' AND a."target" ~ '^user:[0-9a-f-]{36}$'
) s
WHERE s."tenant_id" = m."tenant_id" AND s.user_id = m."user_id" AND s."at" = m."created_at"
  AND s.inviter IS NOT NULL AND s.inviter <> m."user_id";
--> statement-breakpoint
-- Each invited member's family is the root of their invitation chain (bounded, in case of a cycle).
WITH RECURSIVE up(tenant_id, user_id, cur, depth) AS (
  SELECT "tenant_id", "user_id", "invited_by", 1 FROM "memberships" WHERE "invited_by" IS NOT NULL
  UNION ALL
  SELECT up.tenant_id, up.user_id, p."invited_by", up.depth + 1
  FROM up JOIN "memberships" p ON p."tenant_id" = up.tenant_id AND p."user_id" = up.cur
  WHERE p."invited_by" IS NOT NULL AND up.depth < 100
)
UPDATE "memberships" m SET "family_id" = r.cur
FROM (SELECT DISTINCT ON (tenant_id, user_id) tenant_id, user_id, cur FROM up ORDER BY tenant_id, user_id, depth DESC) r
WHERE r.tenant_id = m."tenant_id" AND r.user_id = m."user_id";
