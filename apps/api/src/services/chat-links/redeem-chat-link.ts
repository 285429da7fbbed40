import { type ChatLink, Problem } from "@fleet/contracts";
import { chatLinks, connectors, eq } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import { newId } from "../../runtime/ids.ts";
import { type Actor, recordAudit } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { toChatLink } from "./chat-link-view.ts";
import { spendLinkToken } from "./link-token.ts";

/**
 * The signed-in member confirms a link a chat user was sent: the token is spent and the chat user linked
 * to the member, in one transaction (a refusal spends nothing). Only a console session redeems: the
 * member sees which chat user they take on before confirming, which a command-line credential or an API
 * key would skip.
 */
export async function redeemChatLink(
  ctx: ServiceContext,
  actor: Actor,
  principal: TenantPrincipal,
  token: string,
): Promise<ChatLink> {
  if (principal.credential !== "session_token")
    throw new Problem("UZ-AUTH-003", {
      detail: "A chat link is confirmed in the console, signed in: not with a command-line credential.",
    });
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const identity = await spendLinkToken(ctx, tx, principal.tenantId, token, now);
    const [link] = await tx
      .insert(chatLinks)
      .values({
        id: newId(now),
        tenantId: principal.tenantId,
        userId: principal.userId,
        provider: identity.provider,
        teamId: identity.teamId,
        chatUserId: identity.chatUserId,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (link === undefined)
      throw new Problem("UZ-CONN-007", {
        detail: `Chat user ${identity.chatUserId} is already linked to a member of this tenant; remove that link first.`,
      });
    const [connector] = await tx
      .select({ teamName: connectors.teamName })
      .from(connectors)
      .where(eq(connectors.id, identity.connectorId));
    await recordAudit(tx, {
      actor,
      at: now,
      tenantId: principal.tenantId,
      workspaceId: null,
      action: "chat_link.create",
      target: `chat_link:${link.id}`,
      details: { provider: link.provider, team_id: link.teamId, chat_user_id: link.chatUserId },
    });
    return toChatLink(link, connector?.teamName ?? null);
  });
}
