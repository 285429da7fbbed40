import { revokeIntegrationGrant as op } from "@fleet/contracts/integration-grants/revoke-integration-grant";
import { revokeGrant } from "../../services/integration-grants/revoke.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const revokeIntegrationGrant = procedure(op).mutation(({ ctx, input }) =>
  revokeGrant(ctx.services, actorOf(ctx), ctx.principal.tenantId, input),
);
