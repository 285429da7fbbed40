import { updateModel as op } from "@fleet/contracts/models/update-model";
import { updateModel as update } from "../../services/models/update-model.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const updateModel = procedure(op).mutation(({ ctx, input }) =>
  update(ctx.services, actorOf(ctx), input),
);
