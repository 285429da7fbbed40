import { CONTEXT_CHARS_PER_TOKEN, CONTEXT_MAX_TOKENS } from "@fleet/contracts";
import { and, desc, eq, fleetEvents, fleetMemories, lt, type SQL, sql } from "@fleet/db";
import { searchable } from "../memories/list-memories.ts";
import { leaseMasker } from "../secrets/lease-masker.ts";
import type { ServiceContext } from "../shared/context.ts";
import { requireCurrentLease } from "../shared/fence.ts";

/** Previous events read to fill the context: more than 8,000 tokens of turns rarely takes more. */
const CONTEXT_ROWS = 100;

/** The fleet's memories for its run: text search and category, newest first; masked. */
export async function searchLeaseMemories(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; fleet_fencing_token: number; query?: string; category?: string; limit: number },
) {
  const lease = await requireCurrentLease(ctx.db, runnerId, input.lease_id, input.fleet_fencing_token);
  const filters: SQL[] = [eq(fleetMemories.fleetId, lease.fleetId)];
  if (input.category !== undefined) filters.push(eq(fleetMemories.category, input.category));
  if (input.query !== undefined)
    filters.push(sql`${searchable} @@ plainto_tsquery('simple', ${input.query})`);
  const rows = await ctx.db
    .select()
    .from(fleetMemories)
    .where(and(...filters))
    .orderBy(desc(fleetMemories.createdAt), desc(fleetMemories.id))
    .limit(input.limit);
  const mask = await leaseMasker(ctx, ctx.db, lease);
  return {
    items: rows.map((row) => ({
      key: mask(row.key),
      content: mask(row.content),
      category: row.category,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    })),
  };
}

/** An event's request as the person wrote it: `message` of its JSON, else the stored text. */
function requestText(requestJson: string): string {
  try {
    const payload: unknown = JSON.parse(requestJson);
    if (typeof payload === "object" && payload !== null && "message" in payload) {
      const { message } = payload as { message: unknown };
      if (typeof message === "string") return message;
    }
  } catch {
    // not JSON: the stored text is the request
  }
  return requestJson;
}

/**
 * The fleet's recent conversation for the leased event: previous processed events' requests and answers,
 * newest first, as many whole turns as fit in the token bound (characters / 4); masked.
 */
export async function leaseContext(
  ctx: ServiceContext,
  runnerId: string,
  input: { lease_id: string; fleet_fencing_token: number },
) {
  const lease = await requireCurrentLease(ctx.db, runnerId, input.lease_id, input.fleet_fencing_token);
  const [current] = await ctx.db
    .select({ createdAt: fleetEvents.createdAt })
    .from(fleetEvents)
    .where(eq(fleetEvents.id, lease.eventId));
  if (current === undefined) return { turns: [], tokens: 0, max_tokens: CONTEXT_MAX_TOKENS };
  const rows = await ctx.db
    .select({
      id: fleetEvents.id,
      createdAt: fleetEvents.createdAt,
      requestJson: fleetEvents.requestJson,
      responseText: fleetEvents.responseText,
      status: fleetEvents.status,
    })
    .from(fleetEvents)
    .where(and(eq(fleetEvents.fleetId, lease.fleetId), lt(fleetEvents.createdAt, current.createdAt)))
    .orderBy(desc(fleetEvents.createdAt), desc(fleetEvents.id))
    .limit(CONTEXT_ROWS);
  const mask = await leaseMasker(ctx, ctx.db, lease);
  const budget = CONTEXT_MAX_TOKENS * CONTEXT_CHARS_PER_TOKEN;
  let used = 0;
  const turns: { event_id: string; created_at: number; request: string; response: string }[] = [];
  for (const row of rows) {
    if (row.status !== "processed" || row.responseText === null) continue;
    const request = mask(requestText(row.requestJson));
    const response = mask(row.responseText);
    if (used + request.length + response.length > budget) break;
    used += request.length + response.length;
    turns.push({ event_id: row.id, created_at: row.createdAt, request, response });
  }
  return { turns, tokens: Math.ceil(used / CONTEXT_CHARS_PER_TOKEN), max_tokens: CONTEXT_MAX_TOKENS };
}
