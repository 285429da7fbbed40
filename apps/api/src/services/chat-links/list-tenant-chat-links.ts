import type { TenantPrincipal } from "../../auth/principal.ts";
import type { ServiceContext } from "../shared/context.ts";
import { chatLinksWhere } from "./chat-link-view.ts";

/** Every chat link in the caller's tenant (the operation asks for `workspace:admin`). */
export async function listTenantChatLinks(ctx: ServiceContext, principal: TenantPrincipal) {
  return { items: await chatLinksWhere(ctx.db, principal.tenantId) };
}
