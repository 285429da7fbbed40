import { deleteFleetKey as op } from "@fleet/contracts/fleet-keys/delete-fleet-key";
import { deleteFleetKey as remove } from "../../services/fleet-keys/delete-fleet-key.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteFleetKey = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal.tenantId, {
    workspaceId: input.workspace_id,
    id: input.id,
  }),
);
