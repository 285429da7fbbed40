import { deleteFleet as op } from "@fleet/contracts/fleets/delete-fleet";
import { deleteFleet as remove } from "../../services/fleets/delete-fleet.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteFleet = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.workspace_id, input.fleet_id),
);
