import type { StreamSubscription } from "../../runtime/stream-hub.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { type StreamInput, subscription } from "./stream-subscription.ts";

/** A fleet's live tail, once the fleet is found in the caller's workspace (another tenant's reads as none). */
export async function streamFleetEvents(
  ctx: ServiceContext,
  tenantId: string,
  input: StreamInput & { fleet_id: string },
): Promise<StreamSubscription> {
  await requireFleet(ctx.db, tenantId, input.workspace_id, input.fleet_id);
  return subscription(input, input.fleet_id);
}
