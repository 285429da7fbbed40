import { deleteSecret as op } from "@fleet/contracts/secrets/delete-secret";
import { deleteSecret as remove } from "../../services/secrets/delete-secret.ts";
import { actorOf, procedure } from "../../trpc.ts";

export const deleteSecret = procedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, actorOf(ctx), ctx.principal.tenantId, input.workspace_id, input.secret_name),
);
