import { listSecrets as op } from "@fleet/contracts/secrets/list-secrets";
import { listSecrets as list } from "../../services/secrets/list-secrets.ts";
import { procedure } from "../../trpc.ts";

export const listSecrets = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input.workspace_id),
);
