import type { ServiceContext } from "../shared/context.ts";
import { requireFleet } from "../shared/tenancy.ts";
import { toFleetBudget } from "./budgets.ts";
import { periodOf } from "./period.ts";

export async function getBudget(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string },
) {
  const fleet = await requireFleet(ctx.db, tenantId, input.workspace_id, input.fleet_id);
  return toFleetBudget(fleet, periodOf(ctx.now()).period);
}
