import { removeMember as op } from "@fleet/contracts/members/remove-member";
import { removeMember as remove } from "../../services/members/remove-member.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const removeMember = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal, input.user_id),
);
