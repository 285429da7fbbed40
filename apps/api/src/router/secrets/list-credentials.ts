import { listCredentials as op } from "@fleet/contracts/secrets/list-credentials";
import { listCredentials as list } from "../../services/secrets/list-credentials.ts";
import { procedure } from "../../trpc.ts";

/** The deprecated name of the secrets list, in its old shape. */
export const listCredentials = procedure(op).query(({ ctx, input }) =>
  list(ctx.services, ctx.principal.tenantId, input.workspace_id),
);
