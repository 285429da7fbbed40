import { deleteChatLink as op } from "@fleet/contracts/chat-links/delete-chat-link";
import { deleteChatLink as remove } from "../../services/chat-links/delete-chat-link.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteChatLink = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal, input.link_id),
);
