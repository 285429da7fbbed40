import { messageFleet as op } from "@fleet/contracts/fleets/message-fleet";
import { messageFleet as message } from "../../services/fleets/message-fleet.ts";
import { procedure } from "../../trpc.ts";

export const messageFleet = procedure(op).mutation(({ ctx, input }) => {
  const { principal } = ctx;
  const actor = principal.apiKeyId ? `api_key:${principal.apiKeyId}` : `user:${principal.userId}`;
  return message(ctx.services, { tenantId: principal.tenantId, actor }, input);
});
