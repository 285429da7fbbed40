import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { toFleetView } from "./fleet-view.ts";

export async function getFleet(ctx: ServiceContext, tenantId: string, workspaceId: string, fleetId: string) {
  return toFleetView(await requireFleet(ctx.db, tenantId, workspaceId, fleetId));
}
