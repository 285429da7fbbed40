import { and, apiKeys, eq, fleetEvents, type Tx } from "@fleet/db";

/**
 * The person behind a principal label (`user:<id>`, or `api_key:<id>` as the key's creator, as answers
 * count a key); null for a label no person stands behind (a schedule, a webhook, a runner).
 */
export async function personOf(tx: Tx, tenantId: string, label: string): Promise<string | null> {
  const [kind, id] = label.split(":", 2) as [string, string | undefined];
  if (id === undefined) return null;
  if (kind === "user") return id;
  if (kind !== "api_key") return null;
  const [key] = await tx
    .select({ createdBy: apiKeys.createdBy })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.tenantId, tenantId)));
  return key?.createdBy ?? null;
}

/** The person whose message started the run that opens a gate: its event's actor. */
export async function causerOfEvent(tx: Tx, tenantId: string, eventId: string): Promise<string | null> {
  const [event] = await tx
    .select({ actor: fleetEvents.actor })
    .from(fleetEvents)
    .where(eq(fleetEvents.id, eventId));
  return event === undefined ? null : personOf(tx, tenantId, event.actor);
}
