import { createModel as op } from "@fleet/contracts/models/create-model";
import { createModel as create } from "../../services/models/create-model.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createModel = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, actorOf(ctx), input),
);
