import { messageFleet as op } from "@fleet/contracts";
import { messageFleet as message } from "../../services/fleets/messages.ts";
import { tenantProcedure } from "../../trpc.ts";

export const messageFleet = tenantProcedure(op).mutation(({ ctx, input }) => {
  const { principal } = ctx;
  const actor = principal.apiKeyId ? `api_key:${principal.apiKeyId}` : `user:${principal.userId}`;
  return message(ctx.services, { tenantId: principal.tenantId, actor }, input);
});
