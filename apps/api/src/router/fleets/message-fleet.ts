import { messageFleet as op } from "@fleet/contracts";
import { messageFleet as message } from "../../services/fleets/messages.ts";
import { tenantProcedure } from "../../trpc.ts";

export const messageFleet = tenantProcedure(op).mutation(async ({ ctx, input }) => {
  const { principal, services } = ctx;
  const actor = principal.apiKeyId ? `api_key:${principal.apiKeyId}` : `user:${principal.userId}`;
  const accepted = await message(services.db, { tenantId: principal.tenantId, actor }, input, services.now());
  services.work.announce();
  return accepted;
});
