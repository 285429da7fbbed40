import type { Database } from "@fleet/db";
import { newId } from "../../runtime/ids.ts";
import type { ServiceContext } from "../shared/context.ts";
import { eventReceived } from "../shared/frames.ts";
import { batchesOf, type GroupCommit } from "../shared/group-commit.ts";
import { notAccepting, requireFleet } from "../shared/tenancy.ts";
import { type ChatRow, storeChats } from "./message-batches.ts";
import { sendOnce } from "./message-keys.ts";

/**
 * Stores a person's message as a chat event for a runner to lease. The common case is one statement,
 * shared with the messages sent at the same moment (`GroupCommit`): the insert reads the fleet (scoped
 * to the tenant and workspace, and active) in the same query. A refusal costs a second read, to say why;
 * a batch that another row's data failed, a second statement of the send's own.
 */
export async function messageFleet(
  ctx: ServiceContext,
  caller: { tenantId: string; actor: string },
  input: { workspace_id: string; fleet_id: string; message: string; idempotency_key?: string | undefined },
) {
  if (input.idempotency_key !== undefined) {
    const sent = await sendOnce(ctx, caller, { ...input, idempotency_key: input.idempotency_key });
    // A repeat answers the first send's event, which entered (and was announced) then.
    if (sent.stored) entered(ctx, caller, input, sent.eventId, sent.webhookId);
    return { status: "accepted" as const, event_id: sent.eventId };
  }
  const { db } = ctx;
  const now = ctx.now();
  const id = newId(now);
  const webhookId = newId(now);
  // The queue is made once per database, with the first send's context: its deliverer is the instance's.
  const statement = (db: Database, rows: ChatRow[]) => storeChats(db, rows, () => ctx.webhookOutbox?.kick());
  const stored = await batchesOf(batches, ctx, statement).store({
    id,
    fleetId: input.fleet_id,
    workspaceId: input.workspace_id,
    tenantId: caller.tenantId,
    actor: caller.actor,
    requestJson: JSON.stringify({ message: input.message }),
    at: now,
    webhookId,
  });
  if (stored) {
    entered(ctx, caller, input, id, webhookId);
    return { status: "accepted" as const, event_id: id };
  }
  const fleet = await requireFleet(db, caller.tenantId, input.workspace_id, input.fleet_id);
  throw notAccepting(fleet.status);
}

/** A chat event was stored: waiting runners take it now, and the live tail and the run's trace begin. */
function entered(
  ctx: ServiceContext,
  caller: { actor: string },
  input: { workspace_id: string; fleet_id: string; message: string },
  eventId: string,
  webhookId: string,
): void {
  ctx.work.announce();
  ctx.tracing?.eventReceived(eventId, "chat");
  eventReceived(ctx, {
    workspaceId: input.workspace_id,
    fleetId: input.fleet_id,
    eventId,
    eventType: "chat",
    actor: caller.actor,
    message: input.message,
    webhookId,
  });
}

const batches = new WeakMap<Database, GroupCommit<ChatRow, boolean>>();
