import { Problem } from "@fleet/contracts";
import { fleetMemories } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import { leaseMasker } from "../secrets/lease-masker.ts";
import type { ServiceContext } from "../shared/context.ts";
import { fencedWrite } from "../shared/fence.ts";

/**
 * Writes a memory of the leased fleet, its content and category with the run's secrets masked out (the
 * fleet's declared values and those delivered to the run); only the lease's current holder may write.
 * A key is the memory's name, which the run reads and deletes it by: a key carrying a secret's value is
 * refused (400) rather than stored under another name.
 */
export async function writeMemory(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; key: string; fencing_token: number; category: string; content: string },
) {
  const now = ctx.now();
  return fencedWrite(ctx, runnerId, input, async (tx, lease) => {
    const mask = await leaseMasker(ctx, tx, lease);
    if (mask(input.key) !== input.key) {
      throw new Problem("UZ-REQ-001", {
        detail: `key carries the value of a secret (${mask(input.key)}); name the memory otherwise.`,
      });
    }
    const content = mask(input.content);
    const category = mask(input.category);
    const [row] = await tx
      .insert(fleetMemories)
      .values({
        id: newId(now),
        fleetId: lease.fleetId,
        key: input.key,
        category,
        content,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [fleetMemories.fleetId, fleetMemories.key],
        set: { category, content, updatedAt: now },
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
