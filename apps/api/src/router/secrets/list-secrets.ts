import { listSecrets as op } from "@fleet/contracts";
import { listSecrets as list } from "../../services/secrets/secrets.ts";
import { tenantProcedure } from "../../trpc.ts";

export const listSecrets = tenantProcedure(op).query(async ({ ctx, input }) => ({
  secrets: await list(ctx.services, ctx.principal.tenantId, input.workspace_id),
}));
