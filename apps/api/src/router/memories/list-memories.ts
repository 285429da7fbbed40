import { listMemories as op } from "@fleet/contracts/memories/list-memories";
import { listMemories as list } from "../../services/memories/list-memories.ts";
import { procedure } from "../../trpc.ts";

export const listMemories = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
