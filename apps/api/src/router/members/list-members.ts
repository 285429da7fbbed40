import { listMembers as op } from "@fleet/contracts/members/list-members";
import { listMembers as list } from "../../services/members/list-members.ts";
import { procedure } from "../../trpc.ts";

export const listMembers = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
