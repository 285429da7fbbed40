import { deleteModel as op } from "@fleet/contracts";
import { deleteModel as remove } from "../../services/models/admin-models.ts";
import { operatorProcedure } from "../../trpc.ts";

export const deleteModel = operatorProcedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, input.uid),
);
