import { fleetMemories } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { leaseMasker } from "../secrets/lease-masker.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

/**
 * Writes a memory of the leased fleet, its content with the fleet's declared secrets masked out; only the
 * lease's current holder may write.
 */
export async function writeMemory(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; key: string; fencing_token: number; category: string; content: string },
) {
  const now = ctx.now();
  return fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const content = (await leaseMasker(ctx, tx, lease))(input.content);
    const [row] = await tx
      .insert(fleetMemories)
      .values({
        id: newId(now),
        fleetId: lease.fleetId,
        key: input.key,
        category: input.category,
        content,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [fleetMemories.fleetId, fleetMemories.key],
        set: { category: input.category, content, updatedAt: now },
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
