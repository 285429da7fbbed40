import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { readEndpointItem, requireEndpoint } from "./endpoint-rows.ts";

/** One endpoint of the workspace with its health, never its secret. */
export async function getWebhookEndpoint(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; endpoint_id: string },
) {
  return ctx.db.transaction(async (tx) => {
    await requireWorkspace(tx, tenantId, input.workspace_id);
    return readEndpointItem(tx, await requireEndpoint(tx, tenantId, input), ctx.now());
  });
}
