import { chatLinks, eq } from "@fleet/db";
import type { TenantPrincipal } from "../../auth/principal.ts";
import type { ServiceContext } from "../shared/context.ts";
import { chatLinksWhere } from "./chat-link-view.ts";

/** The chat users linked to the calling member. */
export async function listChatLinks(ctx: ServiceContext, principal: TenantPrincipal) {
  return { items: await chatLinksWhere(ctx.db, principal.tenantId, eq(chatLinks.userId, principal.userId)) };
}
