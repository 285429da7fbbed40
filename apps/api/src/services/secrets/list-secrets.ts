import type { ServiceContext } from "../shared/context.ts";
import { storedSecrets } from "./stored-secrets.ts";

export async function listSecrets(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  return { secrets: await storedSecrets(ctx, tenantId, workspaceId) };
}
