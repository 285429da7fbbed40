import { deleteApiKey as op } from "@fleet/contracts/api-keys/delete-api-key";
import { deleteApiKey as remove } from "../../services/api-keys/delete-api-key.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteApiKey = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.id),
);
