import { eq, fleetEvents } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireWorkspace } from "../shared/tenancy.ts";
import { type EventFilters, pageOfEvents } from "./event-page.ts";

export async function listWorkspaceEvents(
  ctx: ServiceContext,
  tenantId: string,
  input: EventFilters & { workspace_id: string },
) {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  return pageOfEvents(
    ctx,
    eq(fleetEvents.workspaceId, input.workspace_id),
    `workspace:${input.workspace_id}`,
    input,
  );
}
