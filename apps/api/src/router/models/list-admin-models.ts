import { listAdminModels as op } from "@fleet/contracts/models/list-admin-models";
import { listAdminModels as list } from "../../services/models/list-admin-models.ts";
import { procedure } from "../../trpc.ts";

export const listAdminModels = procedure(op).query(({ ctx, input }) => list(ctx.services, input));
