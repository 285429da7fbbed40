import type { ServiceContext } from "../shared/context.ts";
import { secretState } from "./secret.ts";

/** Whether the workspace has a notice secret, and since when; never the secret. */
export function getNoticeSecret(ctx: ServiceContext, tenantId: string, workspaceId: string) {
  return secretState(ctx, tenantId, workspaceId, "outgoing");
}
