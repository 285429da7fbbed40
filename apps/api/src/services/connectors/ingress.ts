import { and, connectorDeliveries, connectors, eq, lt, type Tx } from "@fleet/db";
import type { ServiceContext } from "../shared/context.ts";

/** How long a delivery id is remembered for `duplicate`: vendors retry for minutes, not days. */
const DELIVERY_MEMORY_MS = 24 * 3_600_000;

/** The connected workspace of a team, or null (an unknown team's deliveries are ignored). */
export async function connectorOfTeam(
  db: ServiceContext["db"] | Tx,
  provider: string,
  teamId: string | null,
) {
  if (teamId === null) return null;
  const [row] = await db
    .select()
    .from(connectors)
    .where(and(eq(connectors.provider, provider), eq(connectors.teamId, teamId)));
  return row ?? null;
}

/**
 * Remembers a delivery id inside the caller's transaction; false when it was already seen (the caller
 * then changes nothing). Old ids are dropped now and then.
 */
export async function firstDelivery(tx: Tx, provider: string, deliveryId: string, now: number) {
  const inserted = await tx
    .insert(connectorDeliveries)
    .values({ provider, deliveryId, receivedAt: now })
    .onConflictDoNothing()
    .returning({ id: connectorDeliveries.deliveryId });
  if (inserted.length > 0 && Math.random() < 0.01)
    await tx.delete(connectorDeliveries).where(lt(connectorDeliveries.receivedAt, now - DELIVERY_MEMORY_MS));
  return inserted.length > 0;
}
