import type { Tx } from "@fleet/db";
import { recordWebhookEvent } from "../webhook-endpoints/outbox.ts";
import { type GrantRow, toGrantView } from "./view.ts";

/**
 * Writes a grant's outgoing event to the outbox in the transaction that requested it (`grant.requested`,
 * a new question put to people) or decided it (`grant.decided`: approved or revoked, by the inbox, the
 * grant webhook or a revoke); its data is the grant as the fleet's grant list shows it.
 */
export async function grantWebhookEvent(
  tx: Tx,
  grant: GrantRow,
  type: "grant.requested" | "grant.decided",
  at: number,
) {
  return recordWebhookEvent(
    tx,
    {
      tenantId: grant.tenantId,
      workspaceId: grant.workspaceId,
      fleetId: grant.fleetId,
      type,
      resource: `integration_grant:${grant.id}`,
      readPath: `/v1/workspaces/${grant.workspaceId}/fleets/${grant.fleetId}/integration-grants`,
      at,
    },
    () => toGrantView(grant),
  );
}
