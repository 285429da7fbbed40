import { revokeIntegrationGrant as op } from "@fleet/contracts/integration-grants/revoke-integration-grant";
import { revokeIntegrationGrant as revoke } from "../../services/integration-grants/revoke-integration-grant.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const revokeIntegrationGrant = procedure(op).mutation(({ ctx, input }) =>
  revoke(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
