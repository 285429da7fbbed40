import { updateFleet as op } from "@fleet/contracts";
import { updateFleet as update } from "../../services/fleets/fleets.ts";
import { tenantProcedure } from "../../trpc.ts";

export const updateFleet = tenantProcedure(op).mutation(async ({ ctx, input }) => {
  const fleet = await update(ctx.services, ctx.principal.tenantId, input);
  ctx.response.headers = { etag: fleet.etag };
  return fleet;
});
