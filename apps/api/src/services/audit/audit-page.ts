import { Problem } from "@fleet/contracts";
import { and, auditEvents, eq, gte, like, lte, type SQL } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { keysetPage } from "../shared/keyset.ts";

export interface AuditQuery {
  actor?: string;
  action?: string;
  since?: number;
  until?: number;
  starting_after?: string;
  limit: number;
}

type AuditRow = typeof auditEvents.$inferSelect;

export function toAuditEvent(row: AuditRow) {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    actor: row.actor,
    action: row.action,
    target: row.target,
    request_id: row.requestId,
    client_request_id: row.clientRequestId,
    at: row.at,
    details: row.details,
  };
}

/** `approval.*` matches every action starting `approval.`; LIKE's own wildcards are escaped. */
function actionFilter(action: string): SQL {
  if (!action.endsWith("*")) return eq(auditEvents.action, action);
  const prefix = action.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`);
  return like(auditEvents.action, `${prefix}%`);
}

/** Newest first over (at, id); `scope` picks the workspace's or the tenant's rows. */
export async function auditPage(ctx: ServiceContext, scope: SQL, bind: string, input: AuditQuery) {
  if (input.since !== undefined && input.until !== undefined && input.since > input.until) {
    throw new Problem("UZ-REQ-001", { detail: "since must not be after until." });
  }
  const filters = [input.actor ?? "", input.action ?? "", input.since ?? "", input.until ?? ""].join(":");
  const page = await keysetPage({
    bind: `audit:${bind}:${filters}`,
    sort: auditEvents.at,
    id: auditEvents.id,
    descending: true,
    limit: input.limit,
    starting_after: input.starting_after,
    read: ({ after, order, rows }) =>
      ctx.db
        .select()
        .from(auditEvents)
        .where(
          and(
            scope,
            input.actor === undefined ? undefined : eq(auditEvents.actor, input.actor),
            input.action === undefined ? undefined : actionFilter(input.action),
            input.since === undefined ? undefined : gte(auditEvents.at, input.since),
            input.until === undefined ? undefined : lte(auditEvents.at, input.until),
            after,
          ),
        )
        .orderBy(...order)
        .limit(rows),
    keyOf: (row) => ({ value: row.at, id: row.id }),
  });
  return { items: page.items.map(toAuditEvent), next_cursor: page.next_cursor };
}
