import { listIntegrationGrants as op } from "@fleet/contracts/integration-grants/list-integration-grants";
import { listGrants } from "../../services/integration-grants/list.ts";
import { procedure } from "../../trpc.ts";

export const listIntegrationGrants = procedure(op).query(({ ctx, input }) =>
  listGrants(ctx.services, ctx.principal.tenantId, input),
);
