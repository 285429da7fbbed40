import { redeemChatLink as op } from "@fleet/contracts/chat-links/redeem-chat-link";
import { redeemChatLink as redeem } from "../../services/chat-links/redeem-chat-link.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const redeemChatLink = procedure(op).mutation(({ ctx, input }) =>
  redeem(ctx.services, actorOf(ctx), ctx.principal, input.token),
);
