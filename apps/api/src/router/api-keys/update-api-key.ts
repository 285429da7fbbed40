import { updateApiKey as op } from "@fleet/contracts/api-keys/update-api-key";
import { updateApiKey as update } from "../../services/api-keys/update-api-key.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const updateApiKey = procedure(op).mutation(({ ctx, input }) =>
  update(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.id),
);
