import { updateMember as op } from "@fleet/contracts/members/update-member";
import { updateMember as update } from "../../services/members/update-member.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const updateMember = procedure(op).mutation(({ ctx, input }) =>
  update(ctx.services, actorOf(ctx), ctx.principal, input.user_id, {
    scopes: input.scopes,
    role: input.role,
  }),
);
