import { updateFleet as op } from "@fleet/contracts/fleets/update-fleet";
import { updateFleet as update } from "../../services/fleets/update-fleet.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const updateFleet = procedure(op).mutation(async ({ ctx, input }) => {
  const fleet = await update(ctx.services, actorOf(ctx), ctx.principal.tenantId, input);
  ctx.response.headers = { etag: fleet.etag };
  return fleet;
});
