import { and, eq, fleetMemories } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

export async function deleteMemory(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; key: string; fencing_token: number },
): Promise<void> {
  await fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    await tx
      .delete(fleetMemories)
      .where(and(eq(fleetMemories.fleetId, lease.fleetId), eq(fleetMemories.key, input.key)));
  });
}
