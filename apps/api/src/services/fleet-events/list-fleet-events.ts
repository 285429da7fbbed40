import { eq, fleetEvents } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { type EventFilters, pageOfEvents } from "./event-page.ts";

export async function listFleetEvents(
  ctx: ServiceContext,
  tenantId: string,
  input: EventFilters & { workspace_id: string; fleet_id: string },
) {
  await requireFleet(ctx.db, tenantId, input.workspace_id, input.fleet_id);
  return pageOfEvents(ctx, eq(fleetEvents.fleetId, input.fleet_id), `fleet:${input.fleet_id}`, input);
}
