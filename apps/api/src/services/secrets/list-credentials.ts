import type { ServiceContext } from "../shared/context.ts";
import { storedSecrets } from "./stored-secrets.ts";

/** The deprecated name of the secrets list, in its old shape. */
export async function listCredentials(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  return {
    credentials: (await storedSecrets(ctx, tenantId, workspaceId)).map(({ name, created_at }) => ({
      name,
      created_at,
    })),
  };
}
