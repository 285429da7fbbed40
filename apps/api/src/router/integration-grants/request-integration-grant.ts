import { requestIntegrationGrant as op } from "@fleet/contracts/integration-grants/request-integration-grant";
import { requestIntegrationGrant as request } from "../../services/integration-grants/request-integration-grant.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const requestIntegrationGrant = procedure(op).mutation(async ({ ctx, input }) => {
  const { created, grant } = await request(ctx.services, actorOf(ctx), ctx.principal.tenantId, input);
  // Asking again for a grant that stands answers it unchanged: 200, not a second 201.
  if (!created) ctx.response.status = 200;
  return grant;
});
