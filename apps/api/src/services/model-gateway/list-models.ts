import type { ServiceContext } from "../shared/context.ts";
import { heldLease, resolveTarget } from "./resolve.ts";

/** The one model a lease's calls go to, in OpenAI's list shape; the key is not opened for it. */
export async function listGatewayModels(ctx: ServiceContext, runnerId: string, leaseId: string) {
  const lease = await heldLease(ctx, runnerId, { lease_id: leaseId, fencing_token: null });
  const target = await resolveTarget(ctx, lease);
  return {
    object: "list" as const,
    data: [{ id: target.model, object: "model" as const, created: 0, owned_by: target.provider }],
  };
}
