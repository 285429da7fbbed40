import { resource } from "../../trpc.ts";
import { deleteChatLink } from "./delete-chat-link.ts";
import { listChatLinks } from "./list-chat-links.ts";
import { listTenantChatLinks } from "./list-tenant-chat-links.ts";
import { redeemChatLink } from "./redeem-chat-link.ts";

export const chatLinksRouter = resource(deleteChatLink, listChatLinks, listTenantChatLinks, redeemChatLink);
