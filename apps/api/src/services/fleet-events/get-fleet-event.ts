import type { ServiceContext } from "../shared/context.ts";
import { readFleetEvent } from "./event-view.ts";

export async function getFleetEvent(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; event_id: string },
) {
  return readFleetEvent(ctx, tenantId, input);
}
