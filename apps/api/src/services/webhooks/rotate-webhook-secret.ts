import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { rotateSecret } from "./secret.ts";

/** Makes the workspace's new webhook secret, the one the grant-approval webhook is verified with. */
export function rotateWebhookSecret(
  ctx: ServiceContext,
  actor: Actor,
  tenantId: string,
  workspaceId: string,
) {
  return rotateSecret(ctx, actor, tenantId, workspaceId, "incoming");
}
