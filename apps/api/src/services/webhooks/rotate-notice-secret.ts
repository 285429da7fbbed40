import type { Actor } from "../shared/audit.ts";
import type { ServiceContext } from "../shared/context.ts";
import { rotateSecret } from "./secret.ts";

/** Makes the workspace's new notice secret, the one its outgoing notices are signed with. */
export function rotateNoticeSecret(ctx: ServiceContext, actor: Actor, tenantId: string, workspaceId: string) {
  return rotateSecret(ctx, actor, tenantId, workspaceId, "outgoing");
}
