import { listMemories as op } from "@fleet/contracts";
import { listMemories as list } from "../../services/memories/memories.ts";
import { tenantProcedure } from "../../trpc.ts";

export const listMemories = tenantProcedure(op).query(({ ctx, input }) =>
  list(ctx.services.db, ctx.principal.tenantId, input),
);
