import { hasScope, updateRunner as op } from "@fleet/contracts";
import { updateRunner as update } from "../../services/runners/runners.ts";
import { operatorProcedure } from "../../trpc.ts";

export const updateRunner = operatorProcedure(op).mutation(({ ctx, input }) =>
  update(ctx.services, input, hasScope(ctx.principal.scopes, "runner:admin")),
);
