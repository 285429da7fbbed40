import { inviteMember as op } from "@fleet/contracts/members/invite-member";
import { inviteMember as invite } from "../../services/members/invite-member.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const inviteMember = procedure(op).mutation(({ ctx, input }) =>
  invite(ctx.services, actorOf(ctx), ctx.principal, input),
);
