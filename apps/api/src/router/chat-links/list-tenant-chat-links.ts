import { listTenantChatLinks as op } from "@fleet/contracts/chat-links/list-tenant-chat-links";
import { listTenantChatLinks as list } from "../../services/chat-links/list-tenant-chat-links.ts";
import { procedure } from "../../trpc.ts";

export const listTenantChatLinks = procedure(op).query(({ ctx }) => list(ctx.services, ctx.principal));
