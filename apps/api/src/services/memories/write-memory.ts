import { fleetMemories } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

/** Writes a memory of the leased fleet; only the lease's current holder may write. */
export async function writeMemory(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; key: string; fencing_token: number; category: string; content: string },
) {
  const now = ctx.now();
  return fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const [row] = await tx
      .insert(fleetMemories)
      .values({
        id: newId(now),
        fleetId: lease.fleetId,
        key: input.key,
        category: input.category,
        content: input.content,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [fleetMemories.fleetId, fleetMemories.key],
        set: { category: input.category, content: input.content, updatedAt: now },
      })
      .returning();
    return {
      key: row!.key,
      content: row!.content,
      category: row!.category,
      created_at: row!.createdAt,
      updated_at: row!.updatedAt,
    };
  });
}
