import type { StreamSubscription } from "../../runtime/stream-hub.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { type StreamInput, subscription } from "./stream-subscription.ts";

/** Every fleet's live tail in one of the caller's workspaces. */
export async function streamWorkspaceEvents(
  ctx: ServiceContext,
  tenantId: string,
  input: StreamInput,
): Promise<StreamSubscription> {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  return subscription(input, null);
}
