import type { ChatLink } from "@fleet/contracts";
import { and, asc, chatLinks, connectors, type Database, eq, type SQL, type Tx } from "@fleet/db";

/** The tenant's links matching `where`, oldest first, each with its team's name while it is connected. */
export async function chatLinksWhere(db: Database | Tx, tenantId: string, where?: SQL): Promise<ChatLink[]> {
  const rows = await db
    .select({ link: chatLinks, teamName: connectors.teamName })
    .from(chatLinks)
    .leftJoin(
      connectors,
      and(
        eq(connectors.tenantId, chatLinks.tenantId),
        eq(connectors.provider, chatLinks.provider),
        eq(connectors.teamId, chatLinks.teamId),
      ),
    )
    .where(
      where === undefined ? eq(chatLinks.tenantId, tenantId) : and(eq(chatLinks.tenantId, tenantId), where),
    )
    .orderBy(asc(chatLinks.createdAt), asc(chatLinks.id));
  return rows.map(({ link, teamName }) => toChatLink(link, teamName));
}

export function toChatLink(link: typeof chatLinks.$inferSelect, teamName: string | null): ChatLink {
  return {
    id: link.id,
    user_id: link.userId,
    provider: link.provider,
    team_id: link.teamId,
    team_name: teamName,
    chat_user_id: link.chatUserId,
    created_at: link.createdAt,
  };
}
