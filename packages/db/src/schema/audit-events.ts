import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";

/**
 * One audited act: who did what to which target, when, under which request. Written in the same
 * transaction as the change it records, so a rolled-back change leaves no row. Append-only: a trigger
 * (migration 0010) refuses every UPDATE and DELETE. No foreign keys: the record outlives the tenant,
 * workspace, key or runner it names.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey(),
    /** Null for operator-plane acts (runner administration), which belong to no tenant. */
    tenantId: uuid("tenant_id"),
    /** Null for tenant-level acts (API keys) and operator-plane acts. */
    workspaceId: uuid("workspace_id"),
    /** The principal: `user:<id>`, `api_key:<id>` or `operator:<subject>`. */
    actor: text("actor").notNull(),
    /** `<resource>.<verb>`, e.g. `approval.approve`, `api_key.revoke`, `secret.create`. */
    action: text("action").notNull(),
    /** What was acted on, e.g. `approval_gate:<id>`, `secret:<name>`. */
    target: text("target").notNull(),
    /** The server's own id of the request that made the change (its answer's `X-Request-Id`). */
    requestId: text("request_id").notNull(),
    /**
     * The caller's own `X-Request-Id`, kept beside the server's and never in its place; null when none
     * (or none matching `[A-Za-z0-9._:-]{1,128}`) was sent.
     */
    clientRequestId: text("client_request_id"),
    at: bigint("at", { mode: "number" }).notNull(),
    /** A few facts of the act (an outcome, a new state); never a secret value. */
    details: jsonb("details").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    /** A workspace's log, newest first, keyset over (at, id). */
    index("audit_events_workspace_idx").on(t.workspaceId, t.at, t.id),
    /** A tenant's log, newest first. */
    index("audit_events_tenant_idx").on(t.tenantId, t.at, t.id),
    check("audit_events_client_request_id_sane", sql`${t.clientRequestId} ~ '^[A-Za-z0-9._:-]{1,128}$'`),
  ],
);
