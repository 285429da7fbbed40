import type { StreamSubscription } from "../../runtime/stream-hub.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet, requireWorkspace } from "../shared/tenancy.ts";

interface StreamInput {
  workspace_id: string;
  kinds?: string;
  last_event_id?: string;
}

function subscription(input: StreamInput, fleetId: string | null): StreamSubscription {
  return {
    workspaceId: input.workspace_id,
    fleetId,
    kinds: input.kinds === undefined ? null : new Set(input.kinds.split(",")),
    afterId: input.last_event_id === undefined ? null : Number(input.last_event_id),
  };
}

/** A fleet's live tail, once the fleet is found in the caller's workspace (another tenant's reads as none). */
export async function streamFleetEvents(
  ctx: ServiceContext,
  tenantId: string,
  input: StreamInput & { fleet_id: string },
): Promise<StreamSubscription> {
  await requireFleet(ctx.db, tenantId, input.workspace_id, input.fleet_id);
  return subscription(input, input.fleet_id);
}

/** Every fleet's live tail in one of the caller's workspaces. */
export async function streamWorkspaceEvents(
  ctx: ServiceContext,
  tenantId: string,
  input: StreamInput,
): Promise<StreamSubscription> {
  await requireWorkspace(ctx.db, tenantId, input.workspace_id);
  return subscription(input, null);
}
