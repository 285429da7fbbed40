import { listAdminModels as op } from "@fleet/contracts";
import { listAdminModels as list } from "../../services/models/admin-models.ts";
import { operatorProcedure } from "../../trpc.ts";

export const listAdminModels = operatorProcedure(op).query(({ ctx, input }) => list(ctx.services, input));
