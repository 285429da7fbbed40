import { createModel as op } from "@fleet/contracts";
import { createModel as create } from "../../services/models/admin-models.ts";
import { operatorProcedure } from "../../trpc.ts";

export const createModel = operatorProcedure(op).mutation(({ ctx, input }) => create(ctx.services, input));
