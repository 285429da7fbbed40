import { listChatLinks as op } from "@fleet/contracts/chat-links/list-chat-links";
import { listChatLinks as list } from "../../services/chat-links/list-chat-links.ts";
import { procedure } from "../../trpc.ts";

export const listChatLinks = procedure(op).query(({ ctx }) => list(ctx.services, ctx.principal));
