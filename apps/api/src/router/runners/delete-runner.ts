import { deleteRunner as op } from "@fleet/contracts";
import { deleteRunner as remove } from "../../services/runners/runners.ts";
import { operatorProcedure } from "../../trpc.ts";

export const deleteRunner = operatorProcedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, input.id),
);
