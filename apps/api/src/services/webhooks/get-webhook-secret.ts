import type { ServiceContext } from "../shared/context.ts";
import { secretState } from "./secret.ts";

/** Whether the workspace has a webhook secret (grant decisions), and since when; never the secret. */
export function getWebhookSecret(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  return secretState(ctx, tenantId, workspaceId, "incoming");
}
