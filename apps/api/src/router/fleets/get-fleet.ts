import { getFleet as op } from "@fleet/contracts/fleets/get-fleet";
import { getFleet as get } from "../../services/fleets/get-fleet.ts";
import { procedure } from "../../trpc.ts";

export const getFleet = procedure(op).query(async ({ ctx, input }) => {
  const fleet = await get(ctx.services, ctx.principal.tenantId, input.workspace_id, input.fleet_id);
  ctx.response.headers = { etag: fleet.etag };
  return fleet;
});
