import type { Tx } from "@fleet/db";
import { type MemberRow, toMemberItem } from "./member-rules.ts";
import { recordTenantWebhookEvent } from "./tenant-webhooks.ts";

/**
 * Writes `member.removed` in the removing transaction; its data is the member as the member list showed
 * them until then (role and scopes included).
 */
export function memberRemovedWebhookEvent(tx: Tx, tenantId: string, member: MemberRow, at: number) {
  return recordTenantWebhookEvent(
    tx,
    {
      tenantId,
      type: "member.removed",
      resource: `member:${member.userId}`,
      readPath: "/v1/tenants/me/members",
      at,
    },
    () => toMemberItem(member),
  );
}
