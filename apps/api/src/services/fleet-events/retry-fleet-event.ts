import { Problem, retryableEventStatuses } from "@fleet/contracts";
import { and, eq, fleetEvents, fleets, inArray, sql } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../shared/context.ts";
import { eventReceived } from "../shared/frames.ts";
import { notAccepting, requireFleet } from "../shared/tenancy.ts";
import { eventInScope, readFleetEvent } from "./event-view.ts";
import { eventReceivedWebhookEvent } from "./event-webhooks.ts";

/**
 * Runs a finished event again: a new `received` event with the same type and request, `retry_of` naming
 * the one it repeats, the caller as its actor. One statement reads the event and its fleet (tenant,
 * workspace, active; the event finished) and stores the copy, so a pause or a second retry racing it
 * sees either all of it or none; its `event.received` goes to the outbox in the same transaction. Every
 * call stores a new event (docs/decisions/fleets-and-messages.md, "Re-running an event"); only a refusal
 * costs further reads, to say why.
 */
export async function retryFleetEvent(
  ctx: ServiceContext,
  caller: { tenantId: string; actor: string },
  input: { workspace_id: string; fleet_id: string; event_id: string },
) {
  const now = ctx.now();
  const id = newId(now);
  const webhookId = newId(now);
  // The copy and its `event.received` in the outbox commit together.
  const row = await ctx.db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(fleetEvents)
      .select(
        tx
          .select({
            id: sql`${id}::uuid`.as("id"),
            workspaceId: fleetEvents.workspaceId,
            fleetId: fleetEvents.fleetId,
            actor: sql`${caller.actor}::text`.as("actor"),
            eventType: fleetEvents.eventType,
            requestJson: fleetEvents.requestJson,
            status: sql`'received'`.as("status"),
            responseText: sql`null`.as("response_text"),
            failureLabel: sql`null`.as("failure_label"),
            failureDetail: sql`null`.as("failure_detail"),
            checkpointId: sql`null`.as("checkpoint_id"),
            resumesEventId: fleetEvents.resumesEventId,
            retryOf: fleetEvents.id,
            tokens: sql`null::bigint`.as("tokens"),
            wallMs: sql`null::bigint`.as("wall_ms"),
            costNanos: sql`null::bigint`.as("cost_nanos"),
            createdAt: sql`${now}::bigint`.as("created_at"),
            updatedAt: sql`${now}::bigint`.as("updated_at"),
          })
          .from(fleetEvents)
          .innerJoin(fleets, eq(fleets.id, fleetEvents.fleetId))
          .where(
            and(
              eventInScope(caller.tenantId, input),
              eq(fleets.status, "active"),
              inArray(fleetEvents.status, [...retryableEventStatuses]),
            ),
          ),
      )
      .returning({
        id: fleetEvents.id,
        eventType: fleetEvents.eventType,
        requestJson: fleetEvents.requestJson,
        workspaceId: fleetEvents.workspaceId,
        fleetId: fleetEvents.fleetId,
      });
    if (stored === undefined) return undefined;
    await eventReceivedWebhookEvent(
      tx,
      {
        tenantId: caller.tenantId,
        workspaceId: stored.workspaceId,
        fleetId: stored.fleetId,
        eventId: stored.id,
      },
      now,
      webhookId,
    );
    return stored;
  });
  if (row === undefined) throw await whyNot(ctx, caller.tenantId, input);

  ctx.work.announce();
  ctx.tracing?.eventReceived(row.id, row.eventType);
  eventReceived(ctx, {
    workspaceId: input.workspace_id,
    fleetId: input.fleet_id,
    eventId: row.id,
    eventType: row.eventType,
    actor: caller.actor,
    webhookId,
    ...messageOf(row.requestJson),
  });
  // Its `event.received` may be in the outbox: deliver now rather than at the next pass.
  ctx.webhookOutbox?.kick();
  return { status: "accepted" as const, event_id: row.id, retry_of: input.event_id };
}

/** The refusal, in the order a caller fixes things: what is absent, then the fleet, then the event. */
async function whyNot(
  ctx: ServiceContext,
  tenantId: string,
  input: { workspace_id: string; fleet_id: string; event_id: string },
): Promise<Problem> {
  const fleet = await requireFleet(ctx.db, tenantId, input.workspace_id, input.fleet_id);
  const event = await readFleetEvent(ctx, tenantId, input);
  if (fleet.status !== "active") return notAccepting(fleet.status);
  return new Problem("UZ-EVENT-002", {
    detail: `Event ${input.event_id} is ${event.status}; only a processed or fleet_error event can be run again.`,
    current_state: event.status,
  });
}

/** A chat request's text, for the live tail's preview; other requests preview nothing. */
function messageOf(requestJson: string): { message?: string } {
  try {
    const parsed: unknown = JSON.parse(requestJson);
    if (typeof parsed === "object" && parsed !== null && "message" in parsed) {
      const { message } = parsed as { message: unknown };
      if (typeof message === "string") return { message };
    }
  } catch {
    // A request that is not JSON has no preview.
  }
  return {};
}
