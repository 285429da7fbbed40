import { withQuery } from "../../lib/urls.ts";

/** Everything the audit page holds in its URL: the scope, the filters and the page. */
export interface AuditPosition {
  workspaceId?: string | undefined;
  /** The whole tenant's log (tenant-level acts such as API keys, and every workspace's) or one workspace's. */
  scope: "workspace" | "tenant";
  /** An exact principal (`user:<id>`). */
  actor?: string | undefined;
  /** An exact action, or a prefix ending in `*`. */
  action?: string | undefined;
  /** Epoch ms, inclusive. */
  since?: number | undefined;
  until?: number | undefined;
  /** The page's cursor. */
  after?: string | undefined;
}

export function auditHref(position: AuditPosition): string {
  return withQuery("/audit", {
    workspace: position.workspaceId,
    scope: position.scope === "tenant" ? "tenant" : undefined,
    actor: position.actor,
    action: position.action,
    since: position.since?.toString(),
    until: position.until?.toString(),
    starting_after: position.after,
  });
}

/** An epoch-ms parameter from the URL; anything else is no filter. */
export function epochOf(value: string | undefined): number | undefined {
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
