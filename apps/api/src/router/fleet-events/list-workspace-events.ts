import { listWorkspaceEvents as op } from "@fleet/contracts";
import { listWorkspaceEvents as list } from "../../services/fleets/events.ts";
import { tenantProcedure } from "../../trpc.ts";

export const listWorkspaceEvents = tenantProcedure(op).query(({ ctx, input }) =>
  list(ctx.services.db, ctx.principal.tenantId, input, ctx.services.now()),
);
