import { listIntegrationGrants as op } from "@fleet/contracts/integration-grants/list-integration-grants";
import { listIntegrationGrants as list } from "../../services/integration-grants/list-integration-grants.ts";
import { procedure } from "../../trpc.ts";

export const listIntegrationGrants = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input),
);
