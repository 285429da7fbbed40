import { createFleetKey as op } from "@fleet/contracts/fleet-keys/create-fleet-key";
import { createFleetKey as create } from "../../services/fleet-keys/create-fleet-key.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const createFleetKey = procedure(op).mutation(({ ctx, input }) =>
  create(ctx.services, actorOf(ctx), ctx.principal, {
    workspaceId: input.workspace_id,
    fleetId: input.fleet_id,
    keyName: input.key_name,
  }),
);
