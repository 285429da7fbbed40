import { deleteModel as op } from "@fleet/contracts/models/delete-model";
import { deleteModel as remove } from "../../services/models/delete-model.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteModel = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), input.uid),
);
