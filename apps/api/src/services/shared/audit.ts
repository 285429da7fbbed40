import { auditEvents, type Tx } from "@fleet/db";
import type { Principal } from "../../auth/principal.ts";
import { newId } from "../../runtime/ids.ts";

/** Who acts, as an audit row names them, and the request they act in. */
export interface Actor {
  /** `user:<id>`, `api_key:<id>`, `operator:<subject>` (`runner:<id>` for completeness). */
  principal: string;
  /** The server's own id of the request. */
  requestId: string;
  /** The caller's `X-Request-Id`, kept beside the server's; null or absent when it sent none (or none sane). */
  clientRequestId?: string | null;
}

/** The request an act is made in, for an act whose actor is known only once the service has looked (a sign-in). */
export type RequestRef = Omit<Actor, "principal">;

/** The principal as the audit log (and a gate's `resolved_by`) names it. */
export function principalLabel(principal: Principal): string {
  switch (principal.class) {
    case "operator":
      return `operator:${principal.subject}`;
    case "runner":
      return `runner:${principal.runnerId}`;
    default:
      return principal.apiKeyId === null ? `user:${principal.userId}` : `api_key:${principal.apiKeyId}`;
  }
}

export interface AuditEntry {
  actor: Actor;
  /** The instant the change itself records. */
  at: number;
  /** Null for operator-plane acts. */
  tenantId: string | null;
  /** Null for tenant-level and operator-plane acts. */
  workspaceId: string | null;
  action: string;
  target: string;
  /** A few facts of the act; never a secret value. */
  details?: Record<string, unknown>;
}

/**
 * Appends one audit row inside the changing transaction, so the row exists exactly when the change
 * commits.
 */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  const { actor, at } = entry;
  await tx.insert(auditEvents).values({
    id: newId(at),
    tenantId: entry.tenantId,
    workspaceId: entry.workspaceId,
    actor: actor.principal,
    action: entry.action,
    target: entry.target,
    requestId: actor.requestId,
    clientRequestId: actor.clientRequestId ?? null,
    at,
    details: entry.details ?? {},
  });
}
