import { listModels as op } from "@fleet/contracts/model-gateway/list-models";
import { listGatewayModels } from "../../services/model-gateway/list-models.ts";
import { procedure } from "../../trpc.ts";

export const listModels = procedure(op).query(({ ctx, input }) =>
  listGatewayModels(ctx.services, ctx.principal.runnerId, input.lease_id),
);
