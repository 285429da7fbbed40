import { deleteSecret as op } from "@fleet/contracts";
import { deleteSecret as remove } from "../../services/secrets/secrets.ts";
import { tenantProcedure } from "../../trpc.ts";

export const deleteSecret = tenantProcedure(op).mutation(({ ctx, input }) =>
  remove(ctx.services, ctx.principal.tenantId, input.workspace_id, input.secret_name),
);
