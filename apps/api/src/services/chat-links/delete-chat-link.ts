import { hasScope, Problem } from "@fleet/contracts";
import { and, chatLinks, eq } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";

/**
 * Removes a chat link: the member's own, or, for a holder of `workspace:admin`, anyone's in the tenant.
 * Another tenant's link is as absent as a missing one (404).
 */
export async function deleteChatLink(
  ctx: ServiceContext,
  actor: Actor,
  principal: TenantPrincipal,
  linkId: string,
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const scope = and(eq(chatLinks.id, linkId), eq(chatLinks.tenantId, principal.tenantId));
    const [link] = await tx.select().from(chatLinks).where(scope).for("update");
    if (link === undefined)
      throw new Problem("UZ-CONN-009", { detail: `No chat link ${linkId} in this tenant.` });
    if (link.userId !== principal.userId && !hasScope(principal.scopes, "workspace:admin"))
      throw new Problem("UZ-CONN-008", {
        detail: "This chat link is another member's: removing it needs workspace:admin.",
      });
    await tx.delete(chatLinks).where(scope);
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: principal.tenantId,
      workspaceId: null,
      action: "chat_link.delete",
      target: `chat_link:${link.id}`,
      details: { user_id: link.userId, provider: link.provider, chat_user_id: link.chatUserId },
    });
  });
}
