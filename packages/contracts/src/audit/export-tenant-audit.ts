import { z } from "zod";
import { defineOperation, tenantCredentials } from "../operation.ts";
import { auditEvent } from "./audit-event.ts";

/** The widest window one export covers: a SIEM pulls a long history window by window. */
export const AUDIT_EXPORT_MAX_RANGE_MS = 31 * 24 * 60 * 60 * 1000;

const epochParam = (field: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
    z
      .number({ error: `${field} must be epoch milliseconds` })
      .int({ error: `${field} must be epoch milliseconds` })
      .min(0, { error: `${field} must be epoch milliseconds` })
      .max(Number.MAX_SAFE_INTEGER, { error: `${field} must be epoch milliseconds` }),
  );

export const exportTenantAudit = defineOperation({
  id: "audit.exportTenant",
  method: "GET",
  path: "/v1/tenants/me/audit/export",
  summary: "Export the tenant's audit log as NDJSON",
  description:
    "Every audited act of the tenant (its tenant-level acts and every workspace's) with from <= at <= to (epoch ms, both required; at most 31 days apart), one AuditEvent JSON object a line, oldest first (at, then id), streamed as it is read: for SIEM ingestion. Export a window that has closed: an act still committing when its window is read may be missed. A failure after the first line ends the stream early, without a final newline.",
  tags: ["Audit"],
  scope: "workspace:admin",
  credentials: tenantCredentials,
  successStatus: 200,
  ndjson: true,
  headers: { "cache-control": "no-store" },
  query: { from: epochParam("from"), to: epochParam("to") },
  output: auditEvent,
});
