import { updateModel as op } from "@fleet/contracts";
import { updateModel as update } from "../../services/models/admin-models.ts";
import { operatorProcedure } from "../../trpc.ts";

export const updateModel = operatorProcedure(op).mutation(({ ctx, input }) => update(ctx.services, input));
