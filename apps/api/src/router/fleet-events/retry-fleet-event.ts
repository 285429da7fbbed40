import { retryFleetEvent as op } from "@fleet/contracts/fleet-events/retry-fleet-event";
import { retryFleetEvent as retry } from "../../services/fleet-events/retry-fleet-event.ts";
import { procedure } from "../../trpc.ts";

export const retryFleetEvent = procedure(op).mutation(({ ctx, input }) => {
  const { principal } = ctx;
  const actor = principal.apiKeyId ? `api_key:${principal.apiKeyId}` : `user:${principal.userId}`;
  return retry(ctx.services, { tenantId: principal.tenantId, actor }, input);
});
