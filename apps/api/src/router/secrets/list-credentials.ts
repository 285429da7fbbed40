import { listCredentials as op } from "@fleet/contracts/secrets/list-credentials";
import { listSecrets } from "../../services/secrets/secrets.ts";
import { procedure } from "../../trpc.ts";

/** The deprecated name of the secrets list, in its old shape. */
export const listCredentials = procedure(op).query(async ({ ctx, input }) => ({
  credentials: (await listSecrets(ctx.services, ctx.principal.tenantId, input.workspace_id)).map(
    ({ name, created_at }) => ({
      name,
      created_at,
    }),
  ),
}));
