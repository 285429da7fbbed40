import { and, eq, sql, type Tx, webhookEndpoints } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";

/**
 * What the workspace's notice endpoint receives: a gate's escalation, and each alert percent of a fleet's
 * budget the fleet names (the spent budget's `budget.exhausted` goes to it only as the 100 % alert, when
 * named, as the notice always went).
 */
export const NOTICE_EVENT_TYPES = ["gate.escalated", "budget.threshold_crossed"] as const;

const DESCRIPTION = "Escalation and budget notices: the approval policy's escalation URL";

/**
 * Keeps the workspace's notice endpoint in step with its approval policy's escalation URL, in the policy's
 * transaction: a URL makes it or moves it (a move undoes a disable by the service, which judged the old URL;
 * a person's disable stands); null removes it with its deliveries. The same URL again changes nothing.
 */
export async function syncNoticeEndpoint(
  tx: Tx,
  workspace: { tenantId: string; workspaceId: string },
  url: string | null,
  actor: string,
  now: number,
): Promise<void> {
  const managed = and(
    eq(webhookEndpoints.workspaceId, workspace.workspaceId),
    sql`${webhookEndpoints.managedBy} is not null`,
  );
  if (url === null) {
    await tx.delete(webhookEndpoints).where(managed);
    return;
  }
  const [current] = await tx.select().from(webhookEndpoints).where(managed).for("update");
  if (current === undefined) {
    await tx.insert(webhookEndpoints).values({
      id: newId(now),
      tenantId: workspace.tenantId,
      workspaceId: workspace.workspaceId,
      url,
      description: DESCRIPTION,
      eventTypes: [...NOTICE_EVENT_TYPES],
      fleetId: null,
      enabled: true,
      managedBy: "approval_policy",
      createdBy: actor,
      createdAt: now,
      updatedAt: now,
    });
    return;
  }
  if (current.url === url) return;
  await tx
    .update(webhookEndpoints)
    .set({
      url,
      enabled: current.enabled || current.disabledReason !== null,
      disabledReason: null,
      disabledAt: null,
      updatedAt: now,
    })
    .where(eq(webhookEndpoints.id, current.id));
}
